import { sql } from 'kysely';
import type { Config } from '../../../config';
import type { Jobs } from '../../../core/jobs';
import type { Outbound } from '../../../core/outbound';
import type { Tenancy, Tx } from '../../../core/tenancy';
import { createStores } from '../../file/stores';
import { type MediaProbe, probeMedia } from './media-probe';

/** One job per item whose file is to be read; the sweep finds those a lost job or a stopped process left. */
const PROCESS = 'course-item.media';
const SWEEP = 'course-item.media-sweep';
/** A reading begun this long ago was left by a stopped process: it is queued again. */
const STALE_PROCESSING = '10 minutes';
/** A pending item whose job has not run for this long is queued again (an in-process queue forgets on restart). */
const LOST_PENDING = '1 minute';

interface Claimed {
  fileId: string;
  storageConfigId: string | null;
  key: string | null;
  size: number;
  mime: string;
}

/**
 * The processing of a video's file (docs/domain.md §8.2 `media_status`): there is no transcoder, so processing is
 * reading the file's container for its length. Setting or replacing the file makes the item `pending` (in the
 * transaction that sets it) and queues a job once that commits; the job takes it (`processing`), reads the container
 * by range outside any transaction, then records `ready` with its length (the item's minutes follow) or `failed` with
 * why, unless the file was replaced meanwhile (the newer job records that one).
 */
export function createMediaProcessing(deps: { tenancy: Tenancy; jobs: Jobs; config: Config; outbound: Outbound }) {
  const { tenancy, jobs } = deps;
  const stores = createStores(deps);

  /** Pending → processing, with where its file's bytes are; nothing when it is not pending (done, or replaced). */
  const claim = (tenantId: string, itemId: string) =>
    tenancy.inTenant(tenantId, async (tx): Promise<Claimed | undefined> => {
      const item = await tx
        .selectFrom('course_item')
        .select(['file_id', 'media_status'])
        .where('id', '=', itemId)
        .forUpdate()
        .executeTakeFirst();
      if (item?.media_status !== 'pending' || !item.file_id) return undefined;
      const file = await tx
        .selectFrom('file')
        .select(['storage_config_id', 'object_key', 'size_bytes', 'mime_type'])
        .where('id', '=', item.file_id)
        .where('status', '=', 'active')
        .executeTakeFirst();
      await tx
        .updateTable('course_item')
        .set({ media_status: 'processing', media_started_at: sql`now()` })
        .where('id', '=', itemId)
        .execute();
      return {
        fileId: String(item.file_id),
        storageConfigId: file?.storage_config_id ? String(file.storage_config_id) : null,
        key: file?.object_key ?? null,
        size: Number(file?.size_bytes ?? 0),
        mime: file?.mime_type ?? '',
      };
    });

  async function read(c: Claimed): Promise<MediaProbe> {
    if (!c.key) return { ok: false, error: 'missing', detail: null };
    try {
      const target = await stores.of(c.storageConfigId);
      return await probeMedia(target.store, c.key, c.size, c.mime);
    } catch (err) {
      return { ok: false, error: 'storage', detail: (err instanceof Error ? err.message : String(err)).slice(0, 500) };
    }
  }

  /** The outcome, on the item still processing the same file; its version moves (a form open on it is stale). */
  const record = (tenantId: string, itemId: string, c: Claimed, probe: MediaProbe) =>
    tenancy.inTenant(tenantId, (tx) =>
      tx
        .updateTable('course_item')
        .set({
          ...(probe.ok
            ? {
                media_status: 'ready' as const,
                media_error: null,
                media_error_detail: null,
                media_duration_sec: probe.durationSec,
                duration_minutes: Math.ceil(probe.durationSec / 60),
              }
            : {
                media_status: 'failed' as const,
                media_error: probe.error,
                media_error_detail: probe.detail,
                media_duration_sec: null,
              }),
          version: sql`version + 1`,
          updated_at: sql`now()`,
        })
        .where('id', '=', itemId)
        .where('media_status', '=', 'processing')
        .where('file_id', '=', c.fileId)
        .execute(),
    );

  async function processItem({ tenantId, itemId }: { tenantId: string; itemId: string }): Promise<void> {
    const claimed = await claim(tenantId, itemId);
    if (!claimed) return;
    await record(tenantId, itemId, claimed, await read(claimed));
  }

  /** Processing a stopped process left is taken up again; each pending item without a job for a while gets one. */
  async function sweep(): Promise<void> {
    const due = await tenancy.asSystem(async (tx) => {
      const left = await sql<{ tenant_id: string; id: string }>`UPDATE course_item SET media_status = 'pending'
        WHERE media_status = 'processing' AND media_started_at < now() - ${STALE_PROCESSING}::interval
        RETURNING tenant_id, id`.execute(tx);
      const lost = await tx
        .selectFrom('course_item')
        .select(['tenant_id', 'id'])
        .where('media_status', '=', 'pending')
        .where(sql<boolean>`coalesce(updated_at, created_at) < now() - ${LOST_PENDING}::interval`)
        .limit(1000)
        .execute();
      return [...left.rows, ...lost];
    });
    for (const item of due) await kick(String(item.tenant_id), String(item.id));
  }

  const kick = (tenantId: string, itemId: string) => jobs.send(PROCESS, { tenantId, itemId });

  jobs.define(PROCESS, processItem, { retryLimit: 1 });
  jobs.define(SWEEP, sweep, { retryLimit: 0 });
  jobs.schedule(SWEEP, '* * * * *');

  return {
    /** Queues the reading of the item's file when the write that made it pending has committed. */
    kick,
    process: processItem,
    sweep,
  };
}

/** In the transaction that sets or replaces a video's file: the reading starts again from pending. */
export async function restartMedia(tx: Tx, itemId: string): Promise<void> {
  await tx
    .updateTable('course_item')
    .set({
      media_status: 'pending',
      media_error: null,
      media_error_detail: null,
      media_duration_sec: null,
      media_started_at: null,
    })
    .where('id', '=', itemId)
    .execute();
}
