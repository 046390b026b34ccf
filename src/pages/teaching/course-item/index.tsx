import '@/pages/teaching/catalogue';
import { history, useAccess, useIntl, useSearchParams } from '@umijs/max';
import { useInterval, useRequest } from 'ahooks';
import { Button, Select, Space } from 'antd';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import CourseOutline from '../course/CourseOutline';
import { courses } from '../course/descriptor';
import CourseItemForm from './CourseItemForm';
import { type CourseItem, courseItemDescriptor, hideItem, MEDIA_TYPES, mediaBusy, publishItem } from './descriptor';
import { MEDIA_POLL_MS, ReplaceMedia, RetryMedia } from './MediaFile';

/**
 * /teach/course/item/list: course items by title, type and status, of every course or of one (`?courseId=`, chosen
 * above the list); added and edited in their own form, published or hidden; each trainee's progress on the profile.
 * One course's items show in order in its chapters above the list, dragged into a new order (as on the course's
 * profile). A document is added from the document base here too. A video's or audio's file is replaced here, and
 * while the file of an item listed is being read the list is read again every few seconds.
 */
export default function CourseItemListPage() {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string) => intl.formatMessage({ id });
  const actionRef = useRef<TableActions>();
  const [search] = useSearchParams();
  const courseId = search.get('courseId') ?? undefined;
  const [keyword, setKeyword] = useState('');
  const { data: choices = [] } = useRequest(
    () =>
      courses
        .list({ pageSize: '50', ...(keyword && { keyword }) })
        .then(({ data }) => data.map((c) => ({ value: c.id, label: `${c.code} ${c.title}` }))),
    { refreshDeps: [keyword], debounceWait: 300, onError: ignoreShownError },
  );
  const reload = () => actionRef.current?.reload();
  const [reading, setReading] = useState(false);
  const [loads, setLoads] = useState(0);
  const [fromLibrary, setFromLibrary] = useState(false);
  useInterval(reload, reading ? MEDIA_POLL_MS : undefined);
  const act = (call: Promise<unknown>) =>
    call.then(() => {
      message.success(t('resource.saved'));
      reload();
    }, ignoreShownError);
  return (
    <div data-testid="teaching-course-item">
      <Space style={{ marginBottom: 12 }}>
        {t('teaching.course-item.courseId')}
        <Select
          allowClear
          showSearch
          filterOption={false}
          onSearch={setKeyword}
          value={courseId}
          options={choices}
          style={{ minWidth: 320 }}
          aria-label={t('teaching.course-item.courseId')}
          data-testid="course-item-course"
          onChange={(id?: string) =>
            history.push(id ? `/teach/course/item/list?courseId=${id}` : '/teach/course/item/list')
          }
        />
      </Space>
      {courseId && <CourseOutline courseId={courseId} reloadKey={loads} onReordered={reload} />}
      <ResourceTable<CourseItem>
        key={courseId ?? 'all'}
        descriptor={courseItemDescriptor}
        actionRef={actionRef}
        params={courseId ? { courseId } : undefined}
        createDefaults={courseId ? { courseId } : undefined}
        renderForm={(props) => <CourseItemForm {...props} />}
        toolbarExtra={[
          access['teaching:course-item:create'] && (
            <Button key="from-library" data-testid="item-from-library" onClick={() => setFromLibrary(true)}>
              {t('teaching.course-item.documentSource.base')}
            </Button>
          ),
        ]}
        tableProps={{
          onLoad: (rows) => {
            setReading(rows.some(mediaBusy));
            setLoads((n) => n + 1);
          },
        }}
        rowActions={(row, { can }) => [
          ['draft', 'hidden'].includes(row.status) && can('teaching:course-item:publish') && (
            <ActionLink key="publish" data-testid="item-publish" onClick={() => act(publishItem(row))}>
              {t('teaching.course-item.publish')}
            </ActionLink>
          ),
          row.status === 'published' && can('teaching:course-item:publish') && (
            <ActionLink key="hide" data-testid="item-hide" onClick={() => act(hideItem(row))}>
              {t('teaching.course-item.hide')}
            </ActionLink>
          ),
          MEDIA_TYPES.includes(row.itemType) && can('teaching:course-item:update') && (
            <ReplaceMedia key="replace" link item={row} onDone={reload} />
          ),
          row.mediaStatus === 'failed' && can('teaching:course-item:update') && (
            <RetryMedia key="retry" link item={row} onDone={reload} />
          ),
        ]}
      />
      {fromLibrary && (
        <CourseItemForm
          defaults={{ ...(courseId && { courseId }), itemType: 'document', documentSource: 'base' }}
          onClose={() => setFromLibrary(false)}
          onSaved={() => {
            setFromLibrary(false);
            reload();
          }}
        />
      )}
    </div>
  );
}
