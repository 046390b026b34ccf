import { invalidField } from '../../core/errors';
import type { Lang } from '../../core/i18n';
import type { Tx } from '../../core/tenancy';

const texts = {
  'zh-CN': { unusable: '附件不存在、尚未上传完成或已属于其他记录' },
  'en-US': { unusable: 'names a file that does not exist, is not uploaded yet or belongs to another record' },
};

/** Who holds a file: a kind of attachment (`qualification.attachment`) and the record. */
export interface Holder {
  bizType: string;
  bizId: string;
}

/**
 * Makes `ids` the files a record holds, in the record's transaction: each must be stored (active) and unclaimed, or
 * already this record's; the files it held before and no longer lists are let go (orphans, removed after a day). A
 * file another record holds, or of another tenant, is refused on `field`, and nothing changes.
 */
export async function claimFiles(tx: Tx, holder: Holder, ids: readonly string[], field: string, lang: Lang) {
  const wanted = [...new Set(ids)];
  await refuseUnusable(tx, holder, wanted, field, lang);
  let released = tx
    .updateTable('file')
    .set({ biz_type: null, biz_id: null })
    .where('biz_type', '=', holder.bizType)
    .where('biz_id', '=', holder.bizId);
  if (wanted.length > 0) released = released.where('id', 'not in', wanted);
  await released.execute();
  await take(tx, holder, wanted);
}

/**
 * Adds `ids` to the files a record holds, keeping those it held (a record whose earlier versions still show them):
 * each checked as `claimFiles` checks them.
 */
export async function claimMoreFiles(tx: Tx, holder: Holder, ids: readonly string[], field: string, lang: Lang) {
  const wanted = [...new Set(ids)];
  await refuseUnusable(tx, holder, wanted, field, lang);
  await take(tx, holder, wanted);
}

/** Each file stored (active) and unclaimed, or already the holder's: else refused on `field`. */
async function refuseUnusable(tx: Tx, holder: Holder, wanted: readonly string[], field: string, lang: Lang) {
  if (wanted.length === 0) return;
  const usable = await tx
    .selectFrom('file')
    .select('id')
    .where('id', 'in', wanted)
    .where('status', '=', 'active')
    .where((eb) =>
      eb.or([
        eb('biz_type', 'is', null),
        eb.and([eb('biz_type', '=', holder.bizType), eb('biz_id', '=', holder.bizId)]),
      ]),
    )
    .execute();
  if (usable.length !== wanted.length) throw invalidField(field, texts[lang].unusable);
}

async function take(tx: Tx, holder: Holder, wanted: readonly string[]) {
  if (wanted.length === 0) return;
  await tx
    .updateTable('file')
    .set({ biz_type: holder.bizType, biz_id: holder.bizId })
    .where('id', 'in', wanted)
    .execute();
}

/** Lets go of every file the records of `bizType` hold (the records are being deleted). */
export async function releaseFiles(tx: Tx, bizType: string, bizIds: readonly string[]) {
  if (bizIds.length === 0) return;
  await tx
    .updateTable('file')
    .set({ biz_type: null, biz_id: null })
    .where('biz_type', '=', bizType)
    .where('biz_id', 'in', bizIds)
    .execute();
}
