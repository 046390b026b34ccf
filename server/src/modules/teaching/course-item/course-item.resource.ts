import { z } from '@hono/zod-openapi';
import type { ColumnType } from 'kysely';
import { sql } from 'kysely';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { ID_PATTERN, Id } from '../../../core/resource/id-param';
import { createdAtFilter } from '../../../core/resource/list-query';
import { columnsOf, tableRepository } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import type {
  Audited,
  Defaulted,
  Id as IdColumn,
  Nullable,
  NullableJson,
  NullableTimestamp,
  Ref,
} from '../../../db/types';

/** Course items (docs/domain.md §8.2): a course's ordered content, its tables, schemas and definition. */
export const ITEM_TYPES = [
  'chapter',
  'video',
  'audio',
  'document',
  'rich_text',
  'live',
  'quiz',
  'assignment',
  'link',
] as const;
export type ItemType = (typeof ITEM_TYPES)[number];
export const ITEM_STATUSES = ['draft', 'published', 'hidden'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
/** A media item's file, set or replaced, is read for its length (./course-item.media.ts): pending, processing, then ready or failed. */
export const MEDIA_STATUSES = ['pending', 'processing', 'ready', 'failed'] as const;
export type MediaStatus = (typeof MEDIA_STATUSES)[number];
/** Why a media file could not be read: gone from its store, its store failed, not media, unreadable, no length. */
export const MEDIA_ERRORS = ['missing', 'storage', 'notMedia', 'unreadable', 'noDuration'] as const;
export type MediaError = (typeof MEDIA_ERRORS)[number];
/** The types whose file is media, read for its length. */
export const MEDIA_TYPES: readonly ItemType[] = ['video', 'audio'];
export type Held = 'fileId' | 'documentId' | 'url' | 'examPaperId' | 'contentHtml' | 'liveConfig';
export const HELD: readonly Held[] = ['fileId', 'documentId', 'url', 'examPaperId', 'contentHtml', 'liveConfig'];
/**
 * What each type of item holds, one of them required: a stored file, a document of the document base, an address, a
 * paper, rich text (a rich-text item's body, an assignment's instructions) or a live session's arrangements.
 */
export const HOLDS: Record<ItemType, readonly Held[]> = {
  chapter: [],
  video: ['fileId'],
  audio: ['fileId'],
  document: ['fileId', 'documentId'],
  rich_text: ['contentHtml'],
  live: ['liveConfig'],
  quiz: ['examPaperId'],
  assignment: ['contentHtml'],
  link: ['url'],
};
/** Live platforms (the room's address is what trainees open). */
export const LIVE_PLATFORMS = ['tencent_meeting', 'dingtalk', 'zoom', 'wechat_channels', 'other'] as const;
export const LiveConfig = z
  .object({
    startAt: z.iso.datetime({ offset: true }),
    endAt: z.iso.datetime({ offset: true }),
    platform: z.enum(LIVE_PLATFORMS),
    roomUrl: z.url({ protocol: /^https?$/ }).max(1000),
  })
  .strict()
  .openapi('CourseItemLiveConfig');
export type LiveConfig = z.infer<typeof LiveConfig>;
/** The purpose of the files a course item holds, for the file list. */
export const MATERIAL = 'course-item.material';

interface CourseItemTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  course_id: Ref;
  parent_id: Nullable<Ref>;
  item_type: ItemType;
  title: string;
  description: Nullable<string>;
  file_id: Nullable<Ref>;
  url: Nullable<string>;
  exam_paper_id: Nullable<Ref>;
  duration_minutes: Nullable<number>;
  min_view_percent: Defaulted<number>;
  is_required: Defaulted<boolean>;
  sort: Defaulted<number>;
  status: Defaulted<ItemStatus>;
  media_status: Nullable<MediaStatus>;
  media_error: Nullable<MediaError>;
  media_error_detail: Nullable<string>;
  media_duration_sec: Nullable<number>;
  media_started_at: NullableTimestamp;
  available_from: NullableTimestamp;
  content_html: Nullable<string>;
  document_id: Nullable<Ref>;
  live_config: NullableJson;
  is_preview: Defaulted<boolean>;
}
interface CourseItemProgressTable {
  id: IdColumn;
  tenant_id: Ref;
  item_id: Ref;
  course_id: Ref;
  trainee_id: Ref;
  percent: Defaulted<number>;
  score: ColumnType<string | null, number | null | undefined, number | null>;
  completed_at: NullableTimestamp;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}
declare module '../../../db/types' {
  interface DB {
    course_item: CourseItemTable;
    course_item_progress: CourseItemProgressTable;
  }
}

export const CourseItem = recordRow({
  courseId: z.string(),
  courseTitle: z.string(),
  parentId: z.string().nullable().openapi({ description: 'The chapter it is in' }),
  parentTitle: z.string().nullable(),
  itemType: z.enum(ITEM_TYPES),
  title: z.string(),
  description: z.string().nullable(),
  fileId: z.string().nullable().openapi({ description: 'A video, audio or document: the file' }),
  fileName: z.string().nullable(),
  documentId: z.string().nullable().openapi({ description: 'A document: one of the document base, instead of a file' }),
  documentTitle: z.string().nullable(),
  documentStatus: z.string().nullable().openapi({ description: "The base document's status" }),
  contentHtml: z
    .string()
    .nullable()
    .openapi({ description: "A rich-text item's body, an assignment's instructions (sanitised by the server)" }),
  liveConfig: LiveConfig.nullable().openapi({ description: 'A live session: when, where' }),
  url: z.string().nullable().openapi({ description: 'A link: the address' }),
  examPaperId: z.string().nullable().openapi({ description: 'A quiz: the paper (published)' }),
  examPaperTitle: z.string().nullable(),
  durationMinutes: z.number().int().nullable(),
  minViewPercent: z.number().int().openapi({ description: 'A video or document is complete at this share viewed' }),
  isRequired: z.boolean(),
  availableFrom: z
    .string()
    .nullable()
    .openapi({ description: 'Drip release: shown to trainees from then on (null: once published)' }),
  isPreview: z.boolean().openapi({ description: 'Open to anyone before enrolling' }),
  sort: z.number().int(),
  status: z.enum(ITEM_STATUSES),
  completedCount: z.number().int().openapi({ description: 'Trainees who completed it' }),
  mediaStatus: z
    .enum(MEDIA_STATUSES)
    .nullable()
    .openapi({ description: "A video: its file's processing (null: not media)" }),
  mediaError: z.enum(MEDIA_ERRORS).nullable().openapi({ description: 'Failed: why' }),
  mediaErrorDetail: z.string().nullable().openapi({ description: "Failed: the parser's or the store's words" }),
  mediaDurationSec: z.number().int().nullable().openapi({ description: 'Ready: its length in seconds' }),
}).openapi('CourseItem');
export type CourseItem = z.infer<typeof CourseItem>;

const fields = {
  courseId: ref('course'),
  parentId: ref('course_item').nullable().optional().openapi({ description: 'A chapter of the same course' }),
  itemType: z.enum(ITEM_TYPES),
  title: field.requiredText(200),
  description: field.optionalText(2000),
  fileId: ref('file').nullable().optional(),
  url: z
    .url({ protocol: /^https?$/ })
    .max(1000)
    .nullable()
    .optional(),
  examPaperId: ref('exam_paper').nullable().optional(),
  documentId: ref('document')
    .nullable()
    .optional()
    .openapi({ description: 'A document of the document base (published to publish)' }),
  contentHtml: z
    .string()
    .max(200_000)
    .nullable()
    .optional()
    .openapi({ description: 'Rich text; the server keeps only safe markup (no scripts, no event handlers)' }),
  liveConfig: LiveConfig.nullable()
    .optional()
    .openapi({ description: 'A live session: its start, end (after the start), platform and room address' }),
  durationMinutes: z.number().int().min(1).max(10_000).nullable().optional(),
  minViewPercent: z.number().int().min(1).max(100).optional(),
  isRequired: z.boolean().optional(),
  availableFrom: z.iso
    .datetime({ offset: true })
    .nullable()
    .optional()
    .openapi({ description: 'Drip release: shown to trainees from then on', example: '2026-12-01T08:00:00+08:00' }),
  isPreview: z.boolean().optional(),
};
export const CreateCourseItem = requestBody('CreateCourseItem', fields);
export type CreateCourseItem = z.infer<typeof CreateCourseItem>;
const { courseId: _course, itemType: _type, ...changeable } = fields;
export const UpdateCourseItem = updateBody('UpdateCourseItem', {
  ...changeable,
  title: fields.title.optional(),
});
export type UpdateCourseItem = z.infer<typeof UpdateCourseItem>;

export const ItemAction = requestBody('CourseItemAction', { version: Version });
export const ReplaceMedia = requestBody('ReplaceCourseItemMedia', {
  fileId: ref('file').openapi({ description: 'A file uploaded (an attachment no record holds yet)' }),
  version: Version,
});
export type ReplaceMedia = z.infer<typeof ReplaceMedia>;
export const HideItem = requestBody('HideCourseItem', { hidden: z.boolean(), version: Version });
/** A course holds this many items at most: its outline is read, and reordered, whole. */
export const MAX_COURSE_ITEMS = 1000;
export const OutlineQuery = z.object({ courseId: Id.openapi({ description: 'The course' }) });
export const ReorderItems = requestBody('ReorderCourseItems', {
  courseId: ref('course'),
  items: z
    .array(z.object({ id: ref('course_item'), parentId: ref('course_item').nullable() }).strict())
    .min(1)
    .max(MAX_COURSE_ITEMS)
    .openapi({ description: 'Every item of the course, in its new order, each with its chapter' }),
});
export type ReorderItems = z.infer<typeof ReorderItems>;
export const RecordProgress = requestBody('RecordCourseProgress', {
  traineeId: ref('trainee'),
  percent: z.number().int().min(0).max(100),
  score: z.number().min(0).max(9999).nullable().optional().openapi({ description: 'A quiz: the score on its paper' }),
});
export type RecordProgress = z.infer<typeof RecordProgress>;
export const ItemProgress = z
  .object({
    traineeId: z.string(),
    traineeName: z.string(),
    traineeNo: z.string(),
    percent: z.number().int(),
    score: z.number().nullable(),
    completed: z.boolean(),
    completedAt: z.string().nullable(),
    updatedAt: z.string().nullable(),
  })
  .openapi('CourseItemProgress');
export type ItemProgress = z.infer<typeof ItemProgress>;

export const courseItemTable = tableRepository<'course_item', CourseItem>({
  name: 'course_item',
  columns: columnsOf(CourseItem, {
    except: [
      'courseTitle',
      'parentTitle',
      'fileName',
      'examPaperTitle',
      'completedCount',
      'availableFrom',
      'documentTitle',
      'documentStatus',
    ],
  }),
  writeOnly: { availableFrom: 'available_from' },
  json: ['liveConfig'],
  tenantOwned: true,
  computed: {
    courseTitle: sql`(SELECT c.title FROM course c WHERE c.id = course_item.course_id)`,
    parentTitle: sql`(SELECT p.title FROM course_item p WHERE p.id = course_item.parent_id)`,
    fileName: sql`(SELECT f.original_name FROM file f WHERE f.id = course_item.file_id)`,
    examPaperTitle: sql`(SELECT p.title FROM exam_paper p WHERE p.id = course_item.exam_paper_id)`,
    availableFrom: sql`to_char(course_item.available_from AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    documentTitle: sql`(SELECT d.title FROM document d WHERE d.id = course_item.document_id)`,
    documentStatus: sql`(SELECT d.status FROM document d WHERE d.id = course_item.document_id)`,
    completedCount: sql`(SELECT count(*)::int FROM course_item_progress g WHERE g.item_id = course_item.id
      AND g.completed_at IS NOT NULL)`,
  },
});

export const courseItemResource = defineResource({
  path: 'teaching/course-item',
  type: 'course_item',
  permission: 'teaching:course-item',
  schemas: { row: CourseItem, create: CreateCourseItem, update: UpdateCourseItem },
  list: {
    sort: { sort: 'sort', title: 'title', createdAt: 'created_at', updatedAt: 'updated_at' },
    defaultSort: 'sort',
    filters: {
      keyword: { kind: 'keyword', columns: ['title'] },
      courseId: { kind: 'eq', column: 'course_id', pattern: ID_PATTERN },
      itemType: { kind: 'in', column: 'item_type', values: ITEM_TYPES },
      isPreview: { kind: 'eq', column: 'is_preview', pattern: /^(true|false)$/ },
      status: { kind: 'in', column: 'status', values: ITEM_STATUSES },
      mediaStatus: { kind: 'in', column: 'media_status', values: MEDIA_STATUSES },
      createdAt: createdAtFilter,
    },
  },
  label: (row) => row.title,
  columns: [
    { key: 'courseTitle' },
    { key: 'parentTitle' },
    { key: 'itemType' },
    { key: 'title' },
    { key: 'durationMinutes' },
    { key: 'isRequired' },
    { key: 'isPreview' },
    { key: 'status' },
    { key: 'mediaStatus' },
    { key: 'completedCount' },
  ],
});
