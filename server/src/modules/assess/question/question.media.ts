import { sql } from 'kysely';
import { invalidField } from '../../../core/errors';
import type { Lang } from '../../../core/i18n';
import type { Tx } from '../../../core/tenancy';
import { claimFiles, claimMoreFiles } from '../../file/attachments';

/** Who holds a question's images: the question (a group's items' images too). */
export const QUESTION_MEDIA = 'question.media';
/** The types an image of a question may be, and how large (a stem's ECG or X-ray, not a whole scan series). */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];
export const IMAGE_MAX_MB = 5;

const texts = {
  'zh-CN': {
    unusable: '图片不存在、尚未上传完成或已属于其他记录',
    notImage: '只能是图片（PNG、JPEG、GIF 或 WebP）',
    tooLarge: `图片不能超过 ${IMAGE_MAX_MB} MB`,
  },
  'en-US': {
    unusable: 'names a file that does not exist, is not uploaded yet or belongs to another record',
    notImage: 'names a file that is not an image (PNG, JPEG, GIF or WebP)',
    tooLarge: `names an image larger than ${IMAGE_MAX_MB} MB`,
  },
};

interface MediaItem {
  stemMediaFileIds?: readonly string[] | null;
  options?: readonly { mediaIds?: readonly string[] | null }[] | null;
}
type MediaQuestion = MediaItem & { children?: readonly MediaItem[] | null };

/** The fields of a question (and of its items) that name images, each with its ids, as a refusal names them. */
export function mediaFields(q: MediaQuestion): { field: string; ids: string[] }[] {
  const of = (item: MediaItem, at: string) => [
    { field: `${at}stemMediaFileIds`, ids: [...(item.stemMediaFileIds ?? [])] },
    ...(item.options ?? []).map((o, i) => ({ field: `${at}options.${i}.mediaIds`, ids: [...(o.mediaIds ?? [])] })),
  ];
  return [...of(q, ''), ...(q.children ?? []).flatMap((child, i) => of(child, `children.${i}.`))].filter(
    (f) => f.ids.length > 0,
  );
}

/** Every image a question (or a snapshot of it) shows, once each. */
export const mediaIdsOf = (q: MediaQuestion): string[] => [...new Set(mediaFields(q).flatMap((f) => f.ids))];

/**
 * The images a question is saved with: each an active image file of the tenant (another tenant's is not found), of an
 * image type and within the size, not held by another record; refused on the field that names it.
 */
export async function checkMedia(tx: Tx, questionId: string | undefined, q: MediaQuestion, lang: Lang) {
  const fields = mediaFields(q);
  const ids = [...new Set(fields.flatMap((f) => f.ids))];
  if (ids.length === 0) return;
  const rows = await tx
    .selectFrom('file')
    .select(['id', 'mime_type', 'size_bytes', 'status', 'biz_type', 'biz_id'])
    .where(sql<boolean>`id = ANY(${ids}::bigint[])`)
    .execute();
  const byId = new Map(rows.map((r) => [String(r.id), r]));
  const t = texts[lang];
  for (const { field, ids: named } of fields)
    for (const id of named) {
      const file = byId.get(id);
      const held = file?.biz_type != null && !(file.biz_type === QUESTION_MEDIA && String(file.biz_id) === questionId);
      if (!file || file.status !== 'active' || held) throw invalidField(field, t.unusable);
      if (!IMAGE_TYPES.includes(file.mime_type)) throw invalidField(field, t.notImage);
      if (Number(file.size_bytes) > IMAGE_MAX_MB * 1024 * 1024) throw invalidField(field, t.tooLarge);
    }
}

/**
 * The question holds the images any of its versions shows (a version is a snapshot, and a published paper pins one):
 * an image dropped in a later version is still the question's, never an orphan, while the question is there. Run
 * once the current version's snapshot (`question` as saved) is written; kept as the saves go, without reading the
 * versions: a save that `added` a version adds its images to those held; one that replaced the first version (a
 * draft's, the only one) holds its images alone, those it dropped let go. A replaced later version (no status allows
 * it today) reads them all.
 */
export async function holdMedia(
  tx: Tx,
  question: MediaQuestion & { id: string; currentVersion: number },
  added: boolean,
  lang: Lang,
) {
  const holder = { bizType: QUESTION_MEDIA, bizId: question.id };
  if (added) return claimMoreFiles(tx, holder, mediaIdsOf(question), 'stemMediaFileIds', lang);
  if (question.currentVersion === 1) return claimFiles(tx, holder, mediaIdsOf(question), 'stemMediaFileIds', lang);
  const versions = await tx
    .selectFrom('question_version')
    .select('snapshot')
    .where('question_id', '=', question.id)
    .execute();
  const ids = new Set<string>();
  for (const { snapshot } of versions) for (const id of mediaIdsOf(snapshot as MediaQuestion)) ids.add(id);
  await claimFiles(tx, holder, [...ids], 'stemMediaFileIds', lang);
}

/** The files a question holds (those of all its versions). */
export async function heldMedia(tx: Tx, questionId: string): Promise<string[]> {
  const rows = await tx
    .selectFrom('file')
    .select('id')
    .where('biz_type', '=', QUESTION_MEDIA)
    .where('biz_id', '=', questionId)
    .orderBy('id')
    .execute();
  return rows.map((r) => String(r.id));
}
