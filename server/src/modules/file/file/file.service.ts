import { createHash, randomUUID } from 'node:crypto';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Config } from '../../../config';
import { AppError, notFound } from '../../../core/errors';
import type { Outbound } from '../../../core/outbound';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import { keyRingOf } from '../../../core/seal';
import { createSecretBox } from '../../../core/secret-box';
import type { Tx } from '../../../core/tenancy';
import { inEachTenant } from '../../../core/tenant-jobs';
import type { SettingsService } from '../../system/settings/settings.service';
import { contentDisposition } from '../storage/object-store';
import { SNIFF_BYTES, sniffType } from '../storage/sniff';
import { createStores, type Stores, type Target } from '../stores';
import { downloadName, shownName } from './download-name';
import {
  type Attachment,
  type FileLink,
  fileResource,
  LIBRARY,
  type NewFile,
  type Presign,
  type StoredFile,
} from './file.resource';

export type FileDeps = ResourceDeps & { settings: SettingsService; config: Config; outbound: Outbound };

/** How long a browser may take to PUT a presigned upload. */
const PRESIGN_TTL_SEC = 15 * 60;
/** An unclaimed or unconfirmed file older than this is an orphan. */
export const ORPHAN_AFTER_MS = 24 * 60 * 60 * 1000;

/** Old Office documents share one container format; their name says which of them a file is. */
const COMPOUND_DOCUMENT = { ext: 'cfb', names: ['doc', 'xls', 'ppt'] };
/** Types shown in the browser as they are; anything else (HTML, SVG...) is only downloaded, never rendered. */
const INLINE = /^(image\/(png|jpeg|gif|webp|bmp)|application\/pdf|video\/(mp4|webm|ogg)|audio\/\w+|text\/plain)$/;

interface Limits {
  maxSizeMb: number;
  allowed: string[];
}

/** The signed token of a local download: `<tenant>.<file>.<expiry in s>.<i|a>.<signature>`. */
interface LinkClaims {
  tenantId: string;
  fileId: string;
  expires: number;
  inline: boolean;
}

/**
 * Files (docs/domain.md §7.2): uploaded through the server (streamed, never held in memory) or straight to an S3 store
 * with a presigned PUT that the server then confirms; the type is found from the content, never from the name, and
 * checked against the tenant's allowed extensions, and the size against its limit (settings `upload.*`). Downloads go
 * through signed links that expire. A file a record holds is not deleted; orphans are removed by `removeOrphans`.
 */
export function createFileService(deps: FileDeps) {
  const { tenancy, settings, config } = deps;
  const stores: Stores = createStores(deps);
  const signer = createSecretBox(keyRingOf(config), 'file link');
  const repository = fileResource.repository;

  const store: ResourceStore<StoredFile, NewFile, { version: number }> = {
    ...fileResource.store,
    createMany: undefined,
    // with what is computed (size, store, uploader), which an insert does not answer
    create: async (tx, input, ctx) => {
      const row = await fileResource.store.create(tx, input, ctx);
      return ((await repository.find(tx, row.id)) ?? row) as StoredFile;
    },
    update: async () => {
      throw new AppError('common.forbidden');
    },
    async remove(tx, rows, ctx) {
      for (const row of rows) {
        if (row.bizId !== null)
          throw new AppError('file.inUse', { name: row.originalName, usedBy: `${row.bizType} #${row.bizId}` });
      }
      await fileResource.store.remove(tx, rows, ctx);
    },
  };
  const generic = createResourceService(fileResource, store, deps);
  /** Deleting files deletes their objects too, once the rows are gone (a refused delete keeps both). */
  const resource: typeof generic = {
    ...generic,
    async remove(ctx, ids) {
      const objects = await tenancy.inTenant(ctx.tenantId, (tx) =>
        tx.selectFrom('file').select(['storage_config_id', 'object_key']).where('id', 'in', ids).execute(),
      );
      const removed = await generic.remove(ctx, ids);
      await purge(objects);
      return removed;
    },
  };

  async function purge(objects: { storage_config_id: string | null; object_key: string }[]) {
    for (const o of objects) {
      const target = await stores.of(o.storage_config_id).catch(() => undefined);
      await target?.store.delete(o.object_key).catch(() => undefined);
    }
  }

  const limits = (tx: Tx): Promise<Limits> =>
    Promise.all([
      settings.numbers(tx, { 'upload.maxSizeMb': 50 }),
      settings.lists(tx, { 'upload.allowedExtensions': [] }),
    ]).then(([n, l]) => ({ maxSizeMb: n['upload.maxSizeMb'], allowed: l['upload.allowedExtensions'] }));

  const tooLarge = (l: Limits) => new AppError('file.tooLarge', { maxMb: l.maxSizeMb });
  const maxBytes = (l: Limits) => l.maxSizeMb * 1024 * 1024;

  /** The type of a file from its first bytes, if the tenant allows it. */
  async function admit(head: Uint8Array, name: string, l: Limits): Promise<{ mime: string; ext: string }> {
    if (head.length === 0) throw new AppError('file.empty');
    const found = await sniffType(head, name);
    const named = path.extname(name).slice(1).toLowerCase();
    const type =
      found?.ext === COMPOUND_DOCUMENT.ext && COMPOUND_DOCUMENT.names.includes(named)
        ? { ...found, ext: named }
        : found;
    const ext = type?.ext === 'jpeg' ? 'jpg' : type?.ext;
    const allowed = l.allowed.join(', ');
    if (!type || !ext) throw new AppError('file.typeUnknown', { name, allowed });
    if (!l.allowed.map((a) => a.toLowerCase()).includes(ext))
      throw new AppError('file.typeNotAllowed', { type: type.mime, allowed });
    return { mime: type.mime, ext };
  }

  const objectKey = (tenantId: string, now: Date) =>
    `t${tenantId}/${now.toISOString().slice(0, 7).replace('-', '')}/${randomUUID()}`;

  /**
   * A store's failure as the user is told it. A system call's error (a directory that cannot be written, a refused
   * connection) names the server's paths or addresses: the user is told the store is unavailable, and the error
   * handler logs the cause.
   */
  const storeFailed = (err: unknown) => {
    if (err instanceof AppError) return err;
    if (typeof (err as NodeJS.ErrnoException | undefined)?.syscall === 'string')
      return Object.assign(new AppError('file.storeUnavailable'), { cause: err });
    return new AppError('file.storeFailed', { reason: err instanceof Error ? err.message : String(err) });
  };

  const newFile = (
    target: Target,
    key: string,
    values: Pick<NewFile, 'originalName' | 'mimeType' | 'ext' | 'sizeBytes' | 'sha256' | 'status'>,
    purpose: 'library' | 'attachment',
  ): NewFile => ({
    ...values,
    storageConfigId: target.id,
    objectKey: key,
    bizType: purpose === 'library' ? LIBRARY : null,
  });

  async function findFile(tenantId: string, id: string): Promise<StoredFile> {
    const row = await tenancy.inTenant(tenantId, (tx) => repository.find(tx, id));
    if (!row) throw notFound();
    return row as StoredFile;
  }

  return {
    resource,
    stores,

    /** What the console needs to upload: straight to the store or through the server, and the tenant's limits. */
    async policy(tenantId: string) {
      const [target, l] = await Promise.all([stores.master(tenantId), tenancy.inTenant(tenantId, limits)]);
      return {
        direct: !!target.store.presignPut,
        provider: target.provider,
        maxSizeMb: l.maxSizeMb,
        allowedExtensions: l.allowed,
      };
    },

    /**
     * An upload through the server: the body streamed to the tenant's master store, its type found from its first
     * bytes before anything is stored, its size and SHA-256 counted on the way. `declaredSize`: Content-Length.
     */
    async upload(
      ctx: WriteContext,
      input: { name: string; purpose: 'library' | 'attachment' },
      body: Readable | null,
      declaredSize?: number,
    ): Promise<StoredFile> {
      const l = await tenancy.inTenant(ctx.tenantId, limits);
      if (declaredSize !== undefined && declaredSize > maxBytes(l)) throw tooLarge(l);
      if (!body) throw new AppError('file.empty');
      const chunks = body[Symbol.asyncIterator]();
      const head: Buffer[] = [];
      let headSize = 0;
      let done = false;
      while (headSize < SNIFF_BYTES) {
        const next = await chunks.next();
        if (next.done) {
          done = true;
          break;
        }
        head.push(next.value);
        headSize += next.value.length;
      }
      const type = await admit(Buffer.concat(head).subarray(0, SNIFF_BYTES), input.name, l);
      const hash = createHash('sha256');
      let size = 0;
      const counted = (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes(l)) throw tooLarge(l);
        hash.update(chunk);
        return chunk;
      };
      async function* all() {
        for (const chunk of head) yield counted(chunk);
        if (done) return;
        for (let next = await chunks.next(); !next.done; next = await chunks.next()) yield counted(next.value);
      }
      const target = await stores.master(ctx.tenantId);
      const key = objectKey(ctx.tenantId, ctx.now);
      try {
        await target.store.put(key, Readable.from(all()), type.mime);
      } catch (err) {
        await target.store.delete(key).catch(() => undefined);
        throw storeFailed(err);
      }
      try {
        const values = { originalName: shownName(input.name), mimeType: type.mime, ext: type.ext, sizeBytes: size };
        const sha256 = hash.digest('hex');
        return await resource.create(ctx, newFile(target, key, { ...values, sha256, status: 'active' }, input.purpose));
      } catch (err) {
        await target.store.delete(key).catch(() => undefined);
        throw err;
      }
    },

    /** A direct upload to an S3 master: a pending file and the presigned PUT the browser sends it with. */
    async presign(ctx: WriteContext, input: Presign) {
      const l = await tenancy.inTenant(ctx.tenantId, limits);
      if (input.size > maxBytes(l)) throw tooLarge(l);
      const target = await stores.master(ctx.tenantId);
      if (!target.store.presignPut) throw new AppError('file.notDirect');
      const key = objectKey(ctx.tenantId, ctx.now);
      const signed = await target.store.presignPut(key, input.contentType, PRESIGN_TTL_SEC).catch((err) => {
        throw storeFailed(err);
      });
      const values = {
        originalName: shownName(input.name),
        mimeType: input.contentType,
        ext: null,
        sizeBytes: input.size,
      };
      const row = await resource.create(
        ctx,
        newFile(target, key, { ...values, sha256: null, status: 'pending' }, input.purpose),
      );
      return {
        fileId: row.id,
        url: signed.url,
        method: 'PUT' as const,
        headers: signed.headers,
        expiresAt: new Date(ctx.now.getTime() + PRESIGN_TTL_SEC * 1000).toISOString(),
      };
    },

    /**
     * Confirms a direct upload: the object is there with the size announced, within the limit, of an allowed type
     * (read from its first bytes). A refused object is deleted with its pending file.
     */
    async complete(ctx: WriteContext, id: string): Promise<StoredFile> {
      const row = await findFile(ctx.tenantId, id);
      // only its uploader confirms an upload
      if (row.createdBy !== ctx.actorId) throw notFound();
      if (row.status !== 'pending') throw new AppError('file.notPending');
      const target = await stores.of(row.storageConfigId);
      const key = await tenancy.inTenant(
        ctx.tenantId,
        async (tx) =>
          (await tx.selectFrom('file').select('object_key').where('id', '=', id).executeTakeFirstOrThrow()).object_key,
      );
      const stored = await target.store.head(key).catch((err) => {
        throw storeFailed(err);
      });
      if (!stored || stored.size !== row.sizeBytes)
        throw new AppError('file.notUploaded', { expected: row.sizeBytes, found: stored?.size ?? 0 });
      const l = await tenancy.inTenant(ctx.tenantId, limits);
      let type: { mime: string; ext: string };
      try {
        if (stored.size > maxBytes(l)) throw tooLarge(l);
        const body = await target.store.get(key, { start: 0, end: SNIFF_BYTES - 1 });
        type = await admit(body ? Buffer.concat(await body.toArray()) : Buffer.alloc(0), row.originalName, l);
      } catch (err) {
        await target.store.delete(key).catch(() => undefined);
        await tenancy.inTenant(ctx.tenantId, (tx) => tx.deleteFrom('file').where('id', '=', id).execute());
        throw err;
      }
      return resource.act(ctx, id, 'create', async (tx) => {
        await tx
          .updateTable('file')
          .set({ status: 'active', mime_type: type.mime, ext: type.ext, updated_at: ctx.now, updated_by: ctx.actorId })
          .where('id', '=', id)
          .execute();
        return (await repository.find(tx, id)) as StoredFile;
      });
    },

    /** A link that downloads (or shows) the file until it expires: presigned by S3, or signed by this server. */
    async link(tenantId: string, id: string, inline: boolean, now = config.now()): Promise<FileLink> {
      const row = await findFile(tenantId, id);
      return linkTo(tenantId, row, inline, now);
    },

    /**
     * The files a record holds, in the order it lists them, with their links; the caller has checked that the viewer
     * may see the record. A file gone since (removed from the list) is left out.
     */
    async attachments(tenantId: string, ids: readonly string[], now = config.now()): Promise<Attachment[]> {
      if (ids.length === 0) return [];
      const rows = await tenancy.inTenant(tenantId, (tx) =>
        repository.list(tx, { page: null, sort: [], filters: [] }, (qb) => qb.where('file.id', 'in', [...ids])),
      );
      const byId = new Map(rows.rows.map((r) => [r.id, r as StoredFile]));
      const out: Attachment[] = [];
      for (const id of ids) {
        const row = byId.get(id);
        if (!row || row.status !== 'active') continue;
        const [preview, download] = [await linkTo(tenantId, row, true, now), await linkTo(tenantId, row, false, now)];
        out.push({
          id,
          name: downloadName(row.originalName, row.ext),
          mimeType: row.mimeType,
          sizeBytes: row.sizeBytes,
          previewUrl: preview.url,
          downloadUrl: download.url,
          expiresAt: preview.expiresAt,
        });
      }
      return out;
    },

    /**
     * The bytes of files a record embeds (a paper's images in its Word or PDF copy), read from their stores: active
     * files of `types` only, each within `maxEach` bytes, all together within `maxTotal` (the rest left out). A file of
     * one of `convert.types` is embedded as `convert.to` makes it (left out when it cannot), and counts as those bytes.
     */
    async contents(
      tenantId: string,
      ids: readonly string[],
      {
        types,
        maxEach,
        maxTotal,
        convert,
      }: {
        types: readonly string[];
        maxEach: number;
        maxTotal: number;
        convert?: {
          types: readonly string[];
          to: (data: Buffer, mime: string) => Promise<{ data: Buffer; mime: string } | undefined>;
        };
      },
    ): Promise<Map<string, { data: Buffer; mime: string }>> {
      const out = new Map<string, { data: Buffer; mime: string }>();
      if (ids.length === 0) return out;
      const rows = await tenancy.inTenant(tenantId, (tx) =>
        tx
          .selectFrom('file')
          .select(['id', 'storage_config_id', 'object_key', 'mime_type', 'size_bytes'])
          .where('id', 'in', [...ids])
          .where('status', '=', 'active')
          .execute(),
      );
      const byId = new Map(rows.map((r) => [String(r.id), r]));
      let total = 0;
      for (const id of ids) {
        const row = byId.get(id);
        const size = Number(row?.size_bytes ?? 0);
        if (!row || !types.includes(row.mime_type) || size > maxEach) continue;
        const converting = convert?.types.includes(row.mime_type) ? convert : undefined;
        // a file embedded as it is counts its stored size; a converted one what it becomes, known once converted
        if (!converting && total + size > maxTotal) continue;
        const target = await stores.of(row.storage_config_id).catch(() => undefined);
        const body = await target?.store.get(row.object_key).catch(() => undefined);
        if (!body) continue;
        const data = Buffer.concat(await body.toArray());
        const embedded = converting
          ? await converting.to(data, row.mime_type).catch(() => undefined)
          : { data, mime: row.mime_type };
        if (!embedded || total + embedded.data.length > maxTotal) continue;
        total += embedded.data.length;
        out.set(id, embedded);
      }
      return out;
    },

    /** The file behind a signed token, for the download route; refused when forged or expired. */
    async open(
      token: string,
      rangeFor: (size: number) => { start: number; end: number } | undefined,
      now = config.now(),
    ) {
      const claims = verify(token);
      if (!claims) throw new AppError('file.linkInvalid');
      if (claims.expires * 1000 < now.getTime()) throw new AppError('file.linkExpired');
      const row = await tenancy.inTenant(claims.tenantId, (tx) =>
        tx
          .selectFrom('file')
          .select(['storage_config_id', 'object_key', 'original_name', 'ext', 'mime_type', 'size_bytes'])
          .where('id', '=', claims.fileId)
          .where('status', '=', 'active')
          .executeTakeFirst(),
      );
      if (!row) throw notFound();
      const size = Number(row.size_bytes);
      const range = rangeFor(size);
      const target = await stores.of(row.storage_config_id);
      const body = await target.store.get(row.object_key, range).catch((err) => {
        throw storeFailed(err);
      });
      if (!body) throw notFound();
      const inline = claims.inline && INLINE.test(row.mime_type);
      return {
        body,
        size,
        range,
        mime: row.mime_type,
        disposition: contentDisposition(downloadName(row.original_name, row.ext), inline),
      };
    },

    /**
     * Removes the orphans of every tenant: files never confirmed, and files no record claimed, older than a day.
     * Answers how many it removed.
     */
    async removeOrphans(now = config.now()): Promise<number> {
      const before = new Date(now.getTime() - ORPHAN_AFTER_MS);
      const found: { storage_config_id: string | null; object_key: string }[] = [];
      await inEachTenant(
        tenancy,
        (tx) =>
          tx
            .selectFrom('file')
            .select('tenant_id')
            .distinct()
            .where((eb) => eb.or([eb('biz_type', 'is', null), eb('status', '=', 'pending')]))
            .where('created_at', '<', before)
            .execute(),
        async (tx) => {
          const rows = await tx
            .deleteFrom('file')
            .where((eb) => eb.or([eb('biz_type', 'is', null), eb('status', '=', 'pending')]))
            .where('created_at', '<', before)
            .returning(['storage_config_id', 'object_key'])
            .execute();
          found.push(...rows);
          return rows.length;
        },
      );
      await purge(found);
      return found.length;
    },
  };

  async function linkTo(tenantId: string, row: StoredFile, inline: boolean, now: Date): Promise<FileLink> {
    if (row.status !== 'active') throw notFound();
    const target = await stores.of(row.storageConfigId);
    const expires = Math.floor(now.getTime() / 1000) + target.linkTtlSec;
    const expiresAt = new Date(expires * 1000).toISOString();
    const shown = inline && INLINE.test(row.mimeType);
    const name = downloadName(row.originalName, row.ext);
    if (target.store.presignGet) {
      const key = await tenancy.inTenant(
        tenantId,
        async (tx) =>
          (await tx.selectFrom('file').select('object_key').where('id', '=', row.id).executeTakeFirstOrThrow())
            .object_key,
      );
      const url = await target.store.presignGet(key, target.linkTtlSec, name, shown);
      return { url, expiresAt, mimeType: row.mimeType, name };
    }
    const claims = `${tenantId}.${row.id}.${expires}.${shown ? 'i' : 'a'}`;
    const url = `/api/file/file/content/${claims}.${signer.sign(claims)}`;
    return { url, expiresAt, mimeType: row.mimeType, name };
  }

  function verify(token: string): LinkClaims | undefined {
    const match = /^(\d{1,19})\.(\d{1,19})\.(\d{1,12})\.([ia])\.([\w-]{10,100})$/.exec(token);
    if (!match) return undefined;
    const [, tenantId, fileId, expires, mode, signature] = match as unknown as string[];
    if (!signer.verify(`${tenantId}.${fileId}.${expires}.${mode}`, signature as string)) return undefined;
    return { tenantId: tenantId as string, fileId: fileId as string, expires: Number(expires), inline: mode === 'i' };
  }
}

export type FileService = ReturnType<typeof createFileService>;
