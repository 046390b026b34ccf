import type {
  CourseItem,
  CreateCourseItem,
  Held,
  ItemProgress,
  RecordProgress,
  UpdateCourseItem,
} from '@server/modules/teaching/course-item/course-item.resource';
import { Link } from '@umijs/max';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import { choiceKeyword, choiceLabel } from '@/utils/choices';
import request, { type Options } from '@/utils/request';
import MediaStatus, { lengthOf } from './MediaStatus';

export type { CourseItem, ItemProgress };

export const courseItems = resourceService<CourseItem, CreateCourseItem, UpdateCourseItem>('teaching/course-item');

const path = '/api/teaching/course-item';
export const publishItem = (row: CourseItem) =>
  courseItems.action<CourseItem>(row.id, 'publish', { version: row.version });
export const hideItem = (row: CourseItem) => courseItems.action<CourseItem>(row.id, 'hide', { version: row.version });
/** Every item of one course in its order (its outline, its chapters): one read, not a list page. */
export const fetchCourseItems = (courseId: string) =>
  request.get<CourseItem[]>(`${path}/outline`, { params: { courseId } });
export const reorderItems = (courseId: string, items: { id: string; parentId: string | null }[]) =>
  request.post<{ moved: number }>(`${path}/reorder`, { data: { courseId, items } });
export const fetchItemProgress = (id: string) => request.get<ItemProgress[]>(`${path}/${id}/progress`);
export const recordProgress = (id: string, body: RecordProgress, options?: Options) =>
  courseItems.action<CourseItem>(id, 'progress', body, options);
export const replaceMedia = (row: CourseItem, fileId: string) =>
  courseItems.action<CourseItem>(row.id, 'replace-media', { fileId, version: row.version });
export const retryMedia = (row: CourseItem) =>
  courseItems.action<CourseItem>(row.id, 'retry-media', { version: row.version });
/** Published documents of the document base as choices (a document item's), found by title as it is typed. */
export const documentChoices = (typed?: string) => {
  const keyword = choiceKeyword(typed);
  return request
    .get<{ data: { id: string; title: string; baseName: string | null }[] }>('/api/content/document', {
      params: { status: 'published', pageSize: '50', ...(keyword && { keyword }) },
    })
    .then(({ data }) => data.map((d) => ({ value: d.id, label: choiceLabel(d.title, d.baseName) })));
};
/** A media item's file is being read: its list and profile read it again until it is done. */
export const mediaBusy = (row: Pick<CourseItem, 'mediaStatus'>) =>
  row.mediaStatus === 'pending' || row.mediaStatus === 'processing';
export const MEDIA_STATUSES: NonNullable<CourseItem['mediaStatus']>[] = ['pending', 'processing', 'ready', 'failed'];

export const ITEM_TYPES: CourseItem['itemType'][] = [
  'chapter',
  'video',
  'audio',
  'document',
  'rich_text',
  'live',
  'quiz',
  'assignment',
  'link',
];
/** What each type holds, one of them required (as the server's HOLDS). */
export const HOLDS: Record<CourseItem['itemType'], readonly Held[]> = {
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
/** The types whose file is media, read for its length (as the server's MEDIA_TYPES). */
export const MEDIA_TYPES: CourseItem['itemType'][] = ['video', 'audio'];
export const LIVE_PLATFORMS: NonNullable<CourseItem['liveConfig']>['platform'][] = [
  'tencent_meeting',
  'dingtalk',
  'zoom',
  'wechat_channels',
  'other',
];
/** The profile shows a field only for the kinds it belongs to: a chapter holds no content, a link no file. */
const lacks = (held: Held) => (row: CourseItem) => !HOLDS[row.itemType].includes(held);
const isChapter = (row: CourseItem) => row.itemType === 'chapter';
const notMedia = (row: CourseItem) => !MEDIA_TYPES.includes(row.itemType);

const STATUS_COLOURS: Record<CourseItem['status'], string> = {
  draft: 'default',
  published: 'success',
  hidden: 'warning',
};

/**
 * Course items (docs/domain.md §8.2): /teach/course/item/list (a course's items, `?courseId=`), API
 * teaching/course-item, permission prefix teaching:course-item; profile /teach/course/item/:id/profile with each
 * trainee's progress. Its form depends on the type (a file, an address, a paper): its own. A video's file is read
 * for its length in the background: its status shows on the list and the profile, which read it again meanwhile.
 */
export const courseItemDescriptor = describeResource<CourseItem, CreateCourseItem, UpdateCourseItem>(
  'teaching/course-item',
  (column) => ({
    auditType: 'course_item',
    profile: (row) => `/teach/course/item/${row.id}/profile`,
    recordName: (row) => row.title,
    formLayout: 'DrawerForm',
    form: { create: [], update: [] },
    columns: [
      column('keyword', { searchOnly: true }),
      column('courseTitle', { hideInSearch: true }),
      column('parentTitle', { hideInSearch: true }),
      column('itemType', {
        options: ITEM_TYPES.map((value) => ({ value, labelId: `teaching.course-item.itemType.${value}` })),
      }),
      column('title', { hideInSearch: true, sorter: true }),
      column('fileName', { hideInSearch: true, hideInTable: true, hideInDescriptions: lacks('fileId') }),
      column('documentTitle', { hideInSearch: true, hideInTable: true, hideInDescriptions: lacks('documentId') }),
      column('url', { hideInSearch: true, hideInTable: true, hideInDescriptions: lacks('url') }),
      column('examPaperTitle', {
        hideInSearch: true,
        hideInTable: true,
        hideInDescriptions: lacks('examPaperId'),
        render: (_, row) => (
          <Link to={`/exam-paper/${row.examPaperId}/profile`} data-testid="item-paper-link">
            {row.examPaperTitle}
          </Link>
        ),
      }),
      column('durationMinutes', { hideInSearch: true, hideInDescriptions: isChapter }),
      column('minViewPercent', { hideInSearch: true, hideInTable: true, hideInDescriptions: isChapter }),
      column('isRequired', { dict: 'yes_no', hideInSearch: true, hideInDescriptions: isChapter }),
      column('availableFrom', { valueType: 'dateTime', hideInSearch: true, hideInDescriptions: isChapter }),
      column('isPreview', { dict: 'yes_no', hideInDescriptions: isChapter }),
      column('status', {
        options: (Object.keys(STATUS_COLOURS) as CourseItem['status'][]).map((value) => ({
          value,
          labelId: `teaching.course-item.status.${value}`,
          color: STATUS_COLOURS[value],
        })),
      }),
      column('completedCount', { hideInSearch: true, hideInDescriptions: isChapter }),
      column('mediaStatus', {
        hideInDescriptions: notMedia,
        options: MEDIA_STATUSES.map((value) => ({ value, labelId: `teaching.course-item.mediaStatus.${value}` })),
        render: (_, row) => <MediaStatus item={row} />,
      }),
      column('mediaDurationSec', {
        hideInDescriptions: notMedia,
        hideInSearch: true,
        hideInTable: true,
        render: (_, row) => lengthOf(row.mediaDurationSec),
      }),
      column('description', { hideInSearch: true, hideInTable: true }),
      column('sort', { hideInSearch: true, sorter: true, hideInTable: true }),
    ],
  }),
);
