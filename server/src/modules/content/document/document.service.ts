import { sql } from 'kysely';
import { AppError, invalidField, notFound, versionConflict } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import { COUNTED, countedList, inListOrder } from '../../../core/resource/counted-list';
import type { ListQuery } from '../../../core/resource/list-query';
import type { ResourceStore, WriteContext } from '../../../core/resource/resource';
import { createResourceService, type ResourceDeps } from '../../../core/resource/resource.service';
import type { Narrow } from '../../../core/resource/table.repository';
import { currentTenant, readIndexed, type Tenancy, type Tx } from '../../../core/tenancy';
import { inEachTenant } from '../../../core/tenant-jobs';
import { claimFiles } from '../../file/attachments';
import { insertAuditLogs } from '../../system/audit/audit.repository';
import { documentsOf } from '../base/library-scope';
import { recountTags } from '../tag/tag.service';
import {
  type BulkMove,
  type BulkTag,
  type CreateDocument,
  type Document,
  type DocumentHit,
  type DocumentStatus,
  type DocumentVersion,
  documentResource,
  type NewVersion,
  type UpdateDocument,
} from './document.resource';
import { highlight, matches } from './document.search';
import { cleanRichText } from './rich-text';

const texts = {
  'zh-CN': {
    noBase: '文档库不存在',
    noTag: '包含不存在的标签，或标签不适用于文档',
    noContent: '请填写正文或上传文件',
    toBeforeFrom: '不能早于生效日期',
    past: '须晚于当前时间',
    noDocument: '包含不存在的文档',
    notHeld: '不是该文档的文件',
    fileUnusable: '文件不存在、尚未上传完成或已属于其他记录',
  },
  'en-US': {
    noBase: 'is not an existing library',
    noTag: 'names a tag that does not exist or is not for documents',
    noContent: 'write the text or attach a file',
    toBeforeFrom: 'must not be before the start',
    past: 'must be in the future',
    noDocument: 'names a document that does not exist',
    notHeld: 'is not a file of this document',
    fileUnusable: 'names a file that does not exist, is not uploaded yet or belongs to another record',
  },
};

/** A version chain's files: every version of a document holds them together (a new version keeps its files). */
const FILES = 'document.file';
const holder = (chainId: string) => ({ bizType: FILES, bizId: chainId });

/**
 * The reader's grants on a library (alias `b`): to `userId` itself, one of its roles or its organisation, giving one of
 * `permissions`. (Trainee types are granted for the learners' portal, whose readers are trainees.)
 */
const granted = (userId: string, permissions: readonly string[]) =>
  sql<boolean>`EXISTS (SELECT 1 FROM document_base_grant g WHERE g.base_id = b.id
    AND g.permission = ANY(${[...permissions]}::text[]) AND (
      (g.subject_type = 'admin_user' AND g.subject_id = ${userId})
      OR (g.subject_type = 'role' AND g.subject_id IN (SELECT ur.role_id FROM user_role ur WHERE ur.user_id = ${userId}))
      OR (g.subject_type = 'org' AND g.subject_id = (SELECT u.org_id FROM admin_user u WHERE u.id = ${userId}))))`;

/** Documents (alias `document`) `userId` may read: of an enabled library, public or for the tenant, or granted. */
const readableBy = (userId: string) =>
  sql<boolean>`EXISTS (SELECT 1 FROM document_base b WHERE b.id = document.base_id AND b.status = 'enabled'
    AND (b.visibility IN ('public', 'tenant') OR ${granted(userId, ['view', 'download', 'manage'])}))`;

/** The order of a reader's search: pinned documents first, then the latest published (`document_reader_idx`). */
const READER_ORDER = sql`document.is_pinned DESC, document.published_at DESC, document.id DESC`;

/** Files of documents (alias `document`) `userId` may download: a readable library, and a grant where it is restricted. */
const downloadableBy = (userId: string) =>
  sql<boolean>`EXISTS (SELECT 1 FROM document_base b WHERE b.id = document.base_id AND b.status = 'enabled'
    AND (b.visibility IN ('public', 'tenant') OR ${granted(userId, ['download', 'manage'])}))`;

/**
 * Documents' rules (docs/domain.md §5.2): a library of the tenant, tags for documents, the text sanitised on the server
 * (its plain text kept for search), the text or a file required; edited while a draft or offline, published (at once
 * or at `publishAt`, by the job), taken offline; a new version is a draft copy of a published document that archives
 * it when it is published; tags applied and documents moved in bulk, all or nothing.
 */
export function createDocumentService(deps: ResourceDeps) {
  const { store: plain, repository } = documentResource;

  const refuseUnless = (row: Document, ...allowed: DocumentStatus[]) => {
    if (!allowed.includes(row.status)) throw new AppError('document.notAllowed', { status: row.status });
  };

  async function checkBase(tx: Tx, baseId: string, field: string, lang: Lang) {
    const base = await tx.selectFrom('document_base').select('id').where('id', '=', baseId).executeTakeFirst();
    if (!base) throw invalidField(field, texts[lang].noBase);
  }

  async function checkTags(tx: Tx, tagIds: readonly string[], lang: Lang) {
    const wanted = [...new Set(tagIds)];
    if (wanted.length === 0) return;
    const found = await tx
      .selectFrom('tag')
      .select('id')
      .where('id', 'in', wanted)
      .where('scope', 'in', ['document', 'general'])
      .execute();
    if (found.length !== wanted.length) throw invalidField('tagIds', texts[lang].noTag);
  }

  async function check(tx: Tx, input: Partial<CreateDocument>, current: Document | undefined, lang: Lang) {
    const t = texts[lang];
    if (input.baseId) await checkBase(tx, input.baseId, 'baseId', lang);
    if (input.tagIds) await checkTags(tx, input.tagIds, lang);
    const from = input.effectiveFrom === undefined ? current?.effectiveFrom : input.effectiveFrom;
    const to = input.effectiveTo === undefined ? current?.effectiveTo : input.effectiveTo;
    if (from && to && to < from) throw invalidField('effectiveTo', t.toBeforeFrom);
    if (input.publishAt && new Date(input.publishAt).getTime() <= Date.now()) throw invalidField('publishAt', t.past);
  }

  /** The input as columns: the HTML sanitised, its plain text beside it; one of the text or a file required. */
  function contentOf(input: Partial<CreateDocument>, current: Document | undefined, lang: Lang) {
    const { tagIds: _t, ...values } = input;
    const out: Record<string, unknown> = { ...values };
    let hasText = current?.contentHtml != null;
    if (input.contentHtml !== undefined) {
      const { html, text } = cleanRichText(input.contentHtml);
      out.contentHtml = html;
      out.contentText = text;
      hasText = text !== null || (html?.includes('<img') ?? false);
    }
    const hasFile = input.fileId === undefined ? current?.fileId != null : input.fileId !== null;
    if (!hasText && !hasFile) throw invalidField('contentHtml', texts[lang].noContent);
    return out;
  }

  async function setTags(tx: Tx, id: string, tagIds: readonly string[], tenantId: string) {
    const before = await tx.selectFrom('document_tag').select('tag_id').where('document_id', '=', id).execute();
    await tx.deleteFrom('document_tag').where('document_id', '=', id).execute();
    const wanted = [...new Set(tagIds)];
    if (wanted.length > 0)
      await tx
        .insertInto('document_tag')
        .values(wanted.map((tagId) => ({ tenant_id: tenantId, document_id: id, tag_id: tagId })))
        .execute();
    await recountTags(tx, [...before.map((r) => String(r.tag_id)), ...wanted]);
  }

  /** The files of the chain: this version's, and those the chain's other versions still hold. */
  async function claimChainFiles(
    tx: Tx,
    chainId: string,
    self: string | null,
    own: string[],
    lang: Lang,
    field: string,
  ) {
    const { rows } = await sql<{ id: string }>`SELECT DISTINCT f.id::text AS id FROM document d,
        unnest(d.attachment_file_ids || CASE WHEN d.file_id IS NULL THEN '{}'::bigint[] ELSE ARRAY[d.file_id] END) f(id)
      WHERE d.chain_id = ${chainId} AND (${self}::bigint IS NULL OR d.id <> ${self}::bigint)`.execute(tx);
    const others = new Set(rows.map((r) => r.id));
    const mine = own.filter((id) => !others.has(id));
    // the files only this version lists are checked (usable) and named on its field
    await claimFiles(tx, holder(chainId), [...mine, ...others], field, lang);
  }

  /** The main file, checked on its own field before the chain claims it with the attachments. */
  async function checkFile(tx: Tx, fileId: string | null | undefined, chainId: string | null, lang: Lang) {
    if (!fileId) return;
    const usable = await tx
      .selectFrom('file')
      .select('id')
      .where('id', '=', fileId)
      .where('status', '=', 'active')
      .where((eb) =>
        eb.or([
          eb('biz_type', 'is', null),
          ...(chainId ? [eb.and([eb('biz_type', '=', FILES), eb('biz_id', '=', chainId)])] : []),
        ]),
      )
      .executeTakeFirst();
    if (!usable) throw invalidField('fileId', texts[lang].fileUnusable);
  }

  const filesOf = (row: { fileId: string | null; attachmentFileIds: string[] }) => [
    ...(row.fileId ? [row.fileId] : []),
    ...row.attachmentFileIds,
  ];

  /** Documents of libraries outside the viewer's data scope are not found (an id outside it answers 404). */
  const find = async (tx: Tx, id: string, viewer?: string) => repository.find(tx, id, await documentsOf(tx, viewer));

  /** The keyword and the tag filter, which the table's own filters do not apply (see document.search.ts). */
  const narrowOf = (query: ListQuery): Narrow => {
    const keyword = query.filters.find((f) => f.name === 'keyword' && f.value.kind === 'keyword');
    const tag = query.filters.find((f) => f.name === 'tagId' && f.value.kind === 'eq');
    return (qb) => {
      let q = qb;
      if (keyword?.value.kind === 'keyword') q = q.where(matches(keyword.value.text));
      if (tag?.value.kind === 'eq')
        q = q.where(
          sql<boolean>`EXISTS (SELECT 1 FROM document_tag dt WHERE dt.document_id = document.id
            AND dt.tag_id = ${tag.value.value})`,
        );
      return q;
    };
  };

  async function withHighlights(tx: Tx, rows: Document[], keyword: string | undefined) {
    if (!keyword || rows.length === 0) return rows;
    const texts = await tx
      .selectFrom('document')
      .select(['id', 'content_text'])
      .where(
        'id',
        'in',
        rows.map((r) => r.id),
      )
      .execute();
    const byId = new Map(texts.map((r) => [String(r.id), r.content_text]));
    return rows.map((row) => ({
      ...row,
      highlight: highlight({ ...row, contentText: byId.get(row.id) ?? null }, keyword),
    }));
  }

  const store: ResourceStore<Document, CreateDocument, UpdateDocument> = {
    ...plain,
    createMany: undefined,
    async list(tx, query) {
      const scope = await documentsOf(tx, query.viewer);
      const keyword = query.filters.find((f) => f.name === 'keyword');
      const text = keyword?.value.kind === 'keyword' ? keyword.value.text : undefined;
      const narrow: Narrow = (qb) => scope(narrowOf(query)(qb));
      const listed = await countedList(tx, repository, query, narrow, text !== undefined);
      return { ...listed, rows: await withHighlights(tx, listed.rows, text) };
    },
    find,
    async create(tx, input, ctx) {
      await check(tx, input, undefined, ctx.lang);
      await checkFile(tx, input.fileId, null, ctx.lang);
      const made = await repository.insert(tx, contentOf(input, undefined, ctx.lang), ctx);
      await tx.updateTable('document').set({ chain_id: made.id }).where('id', '=', made.id).execute();
      await setTags(tx, made.id, input.tagIds ?? [], ctx.tenantId);
      await claimChainFiles(tx, made.id, made.id, filesOf(made), ctx.lang, 'attachmentFileIds');
      return (await find(tx, made.id)) as Document;
    },
    async update(tx, current, input, ctx) {
      refuseUnless(current, 'draft', 'offline');
      await check(tx, input, current, ctx.lang);
      await checkFile(tx, input.fileId, current.chainId ?? current.id, ctx.lang);
      const { version, ...values } = input;
      const updated = await repository.update(tx, current.id, contentOf(values, current, ctx.lang), ctx, version);
      if (!updated) return undefined;
      if (input.tagIds) await setTags(tx, current.id, input.tagIds, ctx.tenantId);
      if (input.fileId !== undefined || input.attachmentFileIds)
        await claimChainFiles(
          tx,
          current.chainId ?? current.id,
          current.id,
          filesOf(updated),
          ctx.lang,
          'attachmentFileIds',
        );
      return (await find(tx, current.id)) as Document;
    },
    async remove(tx, rows, ctx) {
      for (const row of rows) refuseUnless(row, 'draft');
      const ids = rows.map((r) => r.id);
      const tags = await tx.selectFrom('document_tag').select('tag_id').where('document_id', 'in', ids).execute();
      await repository.remove(tx, ids, ctx);
      await recountTags(
        tx,
        tags.map((t) => String(t.tag_id)),
      );
      for (const row of rows) {
        const chainId = row.chainId ?? row.id;
        // the versions left keep their files; the files only the deleted draft held are let go
        await claimChainFiles(tx, chainId, null, [], ctx.lang, 'attachmentFileIds');
      }
    },
  };

  const resource = createResourceService(documentResource, store, deps);

  const act = (
    ctx: WriteContext,
    id: string,
    action: string,
    version: number,
    work: (tx: Tx, row: Document) => Promise<object>,
  ) =>
    resource.act(ctx, id, action, async (tx, row) => {
      if (row.version !== version) throw versionConflict();
      await repository.update(tx, id, await work(tx, row), ctx);
      return (await find(tx, id)) as Document;
    });

  /** Published now: the version it supersedes, if still current, is archived. */
  async function publishNow(tx: Tx, row: Document, now: Date) {
    if (row.supersedesId)
      await tx
        .updateTable('document')
        .set({ status: 'archived', updated_at: now, version: sql`version + 1` })
        .where('id', '=', row.supersedesId)
        .where('status', 'in', ['published', 'offline'])
        .execute();
    return { status: 'published', publishedAt: now.toISOString(), publishAt: null };
  }

  async function versions(tx: Tx, id: string, viewer: string): Promise<DocumentVersion[]> {
    const row = await find(tx, id, viewer);
    if (!row) throw notFound();
    const { rows } = await sql<DocumentVersion>`SELECT d.id::text AS id, d.title, d.version_label AS "versionLabel",
        d.status, d.supersedes_id::text AS "supersedesId",
        to_char(d.published_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "publishedAt",
        to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
        d.content_text AS "contentText"
      FROM document d WHERE d.chain_id = ${row.chainId ?? row.id}
      ORDER BY d.created_at DESC, d.id DESC`.execute(tx);
    return rows;
  }

  /** Every one of `ids`, or a refusal naming `ids` (another tenant's are not found either). */
  async function allOf(tx: Tx, ids: readonly string[], ctx: WriteContext) {
    const unique = [...new Set(ids)];
    const scope = await documentsOf(tx, ctx.actorId);
    const { rows: found } = await repository.list(tx, { page: null, sort: [], filters: [] }, (qb) =>
      scope(qb).where('document.id', 'in', unique),
    );
    if (found.length !== unique.length) throw invalidField('ids', texts[ctx.lang].noDocument);
    return unique;
  }

  return {
    resource,

    /** Draft or offline → published (a scheduled one at once); a new version archives the one it supersedes. */
    publish: (ctx: WriteContext, id: string, version: number) =>
      act(ctx, id, 'publish', version, async (tx, row) => {
        refuseUnless(row, 'draft', 'offline');
        return publishNow(tx, row, ctx.now);
      }),

    offline: (ctx: WriteContext, id: string, version: number) =>
      act(ctx, id, 'publish', version, async (_tx, row) => {
        refuseUnless(row, 'published');
        return { status: 'offline' };
      }),

    /** A draft copy of a published (or offline) document that supersedes it; one such draft at a time. */
    newVersion: (ctx: WriteContext, id: string, input: NewVersion) =>
      deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        const source = await find(tx, id, ctx.actorId);
        if (!source) throw notFound();
        if (source.version !== input.version) throw versionConflict();
        refuseUnless(source, 'published', 'offline');
        const pending = await tx
          .selectFrom('document')
          .select('id')
          .where('supersedes_id', '=', id)
          .where('status', '=', 'draft')
          .executeTakeFirst();
        if (pending) throw new AppError('document.draftExists');
        const text = await tx.selectFrom('document').select('content_text').where('id', '=', id).executeTakeFirst();
        const made = await repository.insert(
          tx,
          {
            baseId: source.baseId,
            title: source.title,
            docType: source.docType,
            docNumber: source.docNumber,
            issuer: source.issuer,
            summary: source.summary,
            contentHtml: source.contentHtml,
            contentText: text?.content_text ?? null,
            fileId: source.fileId,
            attachmentFileIds: source.attachmentFileIds,
            versionLabel: input.versionLabel ?? null,
            supersedesId: id,
            chainId: source.chainId ?? id,
            effectiveFrom: source.effectiveFrom,
            effectiveTo: source.effectiveTo,
            isPinned: source.isPinned,
            allowDownload: source.allowDownload,
            remark: source.remark,
          },
          ctx,
        );
        await setTags(tx, made.id, source.tagIds, ctx.tenantId);
        const after = (await find(tx, made.id)) as Document;
        await deps.audit.record(tx, ctx, {
          action: 'doc:document:new-version',
          resourceType: 'document',
          resourceId: after.id,
          summary: `${after.title} ${after.versionLabel ?? ''} ← ${source.id}`.trim(),
          after,
        });
        return after;
      }),

    versions: (tenantId: string, id: string, viewer: string) =>
      deps.tenancy.inTenant(tenantId, (tx) => versions(tx, id, viewer)),

    /** Tags added to (or removed from) every document named, all or nothing. */
    bulkTag: (ctx: WriteContext, input: BulkTag) =>
      deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        const ids = await allOf(tx, input.ids, ctx);
        await checkTags(tx, input.tagIds, ctx.lang);
        const tagIds = [...new Set(input.tagIds)];
        if (input.mode === 'add')
          await tx
            .insertInto('document_tag')
            .values(
              ids.flatMap((documentId) =>
                tagIds.map((tagId) => ({ tenant_id: ctx.tenantId, document_id: documentId, tag_id: tagId })),
              ),
            )
            .onConflict((oc) => oc.columns(['tenant_id', 'document_id', 'tag_id']).doNothing())
            .execute();
        else
          await tx.deleteFrom('document_tag').where('document_id', 'in', ids).where('tag_id', 'in', tagIds).execute();
        await recountTags(tx, tagIds);
        await tx
          .updateTable('document')
          .set({ updated_at: ctx.now, updated_by: ctx.actorId, version: sql`version + 1` })
          .where('id', 'in', ids)
          .execute();
        await deps.audit.record(tx, ctx, {
          action: 'doc:document:update',
          resourceType: 'document',
          resourceId: null,
          // many documents: what was done is in `after`
          summary: '',
          after: { ids, tagIds, mode: input.mode },
        });
        return { updated: ids.length };
      }),

    /** Every document named moves to another library, all or nothing. */
    bulkMove: (ctx: WriteContext, input: BulkMove) =>
      deps.tenancy.inTenant(ctx.tenantId, async (tx) => {
        const ids = await allOf(tx, input.ids, ctx);
        await checkBase(tx, input.baseId, 'baseId', ctx.lang);
        await tx
          .updateTable('document')
          .set({ base_id: input.baseId, updated_at: ctx.now, updated_by: ctx.actorId, version: sql`version + 1` })
          .where('id', 'in', ids)
          .execute();
        await deps.audit.record(tx, ctx, {
          action: 'doc:document:update',
          resourceType: 'document',
          resourceId: null,
          summary: '',
          after: { ids, baseId: input.baseId },
        });
        return { updated: ids.length };
      }),

    /** A published document as a reader opens it (one more view), if its library lets the reader read it. */
    read: (tenantId: string, userId: string, id: string) =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        const opened = await tx
          .updateTable('document')
          .set({ view_count: sql`view_count + 1` })
          .where('id', '=', id)
          .where('status', '=', 'published')
          .where(readableBy(userId))
          .returning(sql<boolean>`allow_download AND ${downloadableBy(userId)}`.as('canDownload'))
          .executeTakeFirst();
        if (!opened) throw notFound();
        return { ...((await find(tx, id)) as Document), canDownload: Boolean(opened.canDownload) };
      }),

    /**
     * The file (or attachment) of a published document the reader may download: counted, then its signed link is
     * made by the file service. A reader without the right is refused; a file the document does not hold names `fileId`.
     */
    download: (tenantId: string, userId: string, id: string, fileId: string, lang: Lang) =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        const row = await tx
          .selectFrom('document')
          .select(['file_id', 'attachment_file_ids', 'allow_download'])
          .select(downloadableBy(userId).as('permitted'))
          .where('id', '=', id)
          .where('status', '=', 'published')
          .where(readableBy(userId))
          .executeTakeFirst();
        if (!row) throw notFound();
        if (!row.allow_download || !row.permitted) throw new AppError('common.forbidden');
        const held = [...(row.file_id ? [String(row.file_id)] : []), ...row.attachment_file_ids.map(String)];
        if (!held.includes(fileId)) throw invalidField('fileId', texts[lang].notHeld);
        await tx
          .updateTable('document')
          .set({ download_count: sql`download_count + 1` })
          .where('id', '=', id)
          .execute();
      }),

    /**
     * What a reader finds: published documents of enabled libraries the reader may view (public and tenant ones, and
     * restricted ones that grant the reader's roles, organisation or account), by keyword, with the matches marked,
     * pinned ones first, then the latest published. As the lists count (`countedList`), up to COUNTED matches are
     * counted and more are said to be more (`totalCapped`).
     */
    search: (
      tenantId: string,
      userId: string,
      query: { q: string; baseId?: string; current: number; pageSize: number },
    ) =>
      deps.tenancy.inTenant(tenantId, async (tx) => {
        const { q, baseId, current, pageSize } = query;
        // the reader's conditions, which name the reader itself
        const found = () => {
          const documents = tx
            .selectFrom('document')
            .select(sql<string>`document.id::text`.as('id'))
            .where(sql<boolean>`document.tenant_id = ${currentTenant}`)
            .where('status', '=', 'published')
            .where(readableBy(userId))
            .where(matches(q));
          return baseId ? documents.where('base_id', '=', baseId) : documents;
        };
        // the matching ids, COUNTED and one more at most, through the trigram indexes (under row-level security their
        // operators would be tested on every row of the tenant): as the system, within the tenant
        const matched = await readIndexed(tx, () =>
          found()
            .limit(COUNTED + 1)
            .execute(),
        );
        const capped = matched.length > COUNTED;
        // more match: the page is found walking the reader's order (document_reader_idx) as far as it needs
        const among = capped
          ? await readIndexed(tx, () =>
              inListOrder(tx, () =>
                found()
                  .orderBy(READER_ORDER)
                  .limit(pageSize)
                  .offset((current - 1) * pageSize)
                  .execute(),
              ),
            )
          : matched;
        // the page read under the tenant's policy, the reader's conditions with it
        let page = tx
          .selectFrom('document')
          .select([
            sql<string>`document.id::text`.as('id'),
            sql<string>`document.base_id::text`.as('baseId'),
            sql<string>`(SELECT b.name FROM document_base b WHERE b.id = document.base_id)`.as('baseName'),
            'title',
            'summary',
            'content_text',
            'doc_type',
            'published_at',
          ])
          .where(sql<boolean>`document.id = ANY(${among.map((r) => r.id)}::bigint[])`)
          .where('status', '=', 'published')
          .where(readableBy(userId))
          .orderBy(READER_ORDER);
        if (!capped) page = page.limit(pageSize).offset((current - 1) * pageSize);
        const rows = among.length ? await page.execute() : [];
        const data: DocumentHit[] = rows.map((r) => ({
          id: r.id,
          baseId: r.baseId,
          baseName: r.baseName,
          title: r.title,
          docType: r.doc_type,
          publishedAt: r.published_at ? new Date(r.published_at).toISOString() : null,
          highlight: highlight({ title: r.title, summary: r.summary, contentText: r.content_text }, q),
        }));
        return capped
          ? { data, total: COUNTED, totalCapped: true, success: true as const }
          : { data, total: matched.length, success: true as const };
      }),

    /** The scheduled job: drafts whose `publishAt` has come are published, in every tenant. Returns how many. */
    publishDue: (now: Date) => publishDue(deps.tenancy, now),
  };
}

function publishDue(tenancy: Tenancy, now: Date): Promise<number> {
  return inEachTenant(
    tenancy,
    (tx) =>
      tx
        .selectFrom('document')
        .select('tenant_id')
        .distinct()
        .where('status', '=', 'draft')
        .where('publish_at', '<=', now)
        .execute(),
    async (tx, tenantId) => {
      const rows = await tx
        .updateTable('document')
        .set({ status: 'published', published_at: now, publish_at: null, updated_at: now, version: sql`version + 1` })
        .where('status', '=', 'draft')
        .where('publish_at', '<=', now)
        .returning(['id', 'title', 'supersedes_id'])
        .execute();
      const superseded = rows.flatMap((r) => (r.supersedes_id ? [r.supersedes_id] : []));
      if (superseded.length > 0)
        await tx
          .updateTable('document')
          .set({ status: 'archived', updated_at: now, version: sql`version + 1` })
          .where('id', 'in', superseded)
          .where('status', 'in', ['published', 'offline'])
          .execute();
      await insertAuditLogs(tx, { tenantId, actorId: null, ip: null, userAgent: null, at: now }, rows, (r) => ({
        action: 'doc:document:publish',
        resourceType: 'document',
        resourceId: String(r.id),
        summary: r.title,
        before: { status: 'draft' },
        after: { status: 'published' },
      }));
      return rows.length;
    },
  );
}

export type DocumentService = ReturnType<typeof createDocumentService>;
