import '@/pages/teaching/catalogue';
import { history, useAccess, useIntl } from '@umijs/max';
import { Button, Popconfirm } from 'antd';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import CloneDialog from '@/components/CloneDialog';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import TaxonomyDrawer from '@/pages/assess/taxonomy/TaxonomyDrawer';
import { TaxonomySelect } from '@/pages/assess/taxonomy/TaxonomyPickers';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import { assignCourse, type Course, cloneCourse, courseDescriptor, offlineCourse, publishCourse } from './descriptor';

/**
 * /teach/course/list: the tenant's courses by code or title, category (with its sub-categories), type and status;
 * published (the server says what is missing) or taken offline, assigned to their audience, cloned with their items
 * into a draft. The category tree is managed from here.
 */
export default function CourseListPage() {
  const intl = useIntl();
  const access = useAccess();
  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  const actionRef = useRef<TableActions>();
  const [cloning, setCloning] = useState<Course>();
  const [category, setCategory] = useState<string>();
  const [managing, setManaging] = useState(false);
  const [treeVersion, setTreeVersion] = useState(0);
  const reload = () => actionRef.current?.reload();
  const done = (id: string) => () => {
    message.success(t(id));
    reload();
  };
  return (
    <div data-testid="teaching-course">
      <ResourceTable<Course>
        descriptor={courseDescriptor}
        actionRef={actionRef}
        params={category ? { categoryId: category } : undefined}
        toolbarExtra={[
          <div key="category" style={{ width: 200 }}>
            <TaxonomySelect
              key={treeVersion}
              kind="course"
              value={category}
              onChange={(value) => setCategory(typeof value === 'string' ? value : undefined)}
              placeholder={t('teaching.course.categoryId')}
              testId="course-category-filter"
            />
          </div>,
          access['teaching:course-category:manage'] && (
            <Button key="categories" data-testid="manage-course-categories" onClick={() => setManaging(true)}>
              {t('teaching.courseCategory.manage')}
            </Button>
          ),
        ]}
        rowActions={(row, { can }) => [
          ['draft', 'offline'].includes(row.status) && can('teaching:course:publish') && (
            <ActionLink
              key="publish"
              data-testid="course-publish"
              onClick={() => publishCourse(row).then(done('teaching.course.published'), ignoreShownError)}
            >
              {t('teaching.course.publish')}
            </ActionLink>
          ),
          row.status === 'published' && can('teaching:course:assign') && (
            <Popconfirm
              key="assign"
              title={t('teaching.course.assign.confirm')}
              onConfirm={() =>
                assignCourse(row).then(({ enrolled }) => {
                  message.success(t('teaching.course.assigned', { count: enrolled }));
                  reload();
                }, ignoreShownError)
              }
            >
              <ActionLink data-testid="course-assign">{t('teaching.course.assign')}</ActionLink>
            </Popconfirm>
          ),
          row.status === 'published' && can('teaching:course:publish') && (
            <Popconfirm
              key="offline"
              title={t('teaching.course.offline.confirm')}
              onConfirm={() => offlineCourse(row).then(done('teaching.course.offlined'), ignoreShownError)}
            >
              <ActionLink data-testid="course-offline">{t('teaching.course.offline')}</ActionLink>
            </Popconfirm>
          ),
          can('teaching:course:clone') && (
            <ActionLink key="clone" data-testid="course-clone" onClick={() => setCloning(row)}>
              {t('teaching.course.clone')}
            </ActionLink>
          ),
        ]}
      />
      <CloneDialog<Course>
        record={cloning}
        titleId="teaching.course.clone"
        labels={{ code: 'teaching.course.code', title: 'teaching.course.title' }}
        maxCode={50}
        testId="course-clone"
        clone={cloneCourse}
        onClose={() => setCloning(undefined)}
        onDone={(copy) => {
          setCloning(undefined);
          history.push(`/teach/course/${copy.id}/profile`);
        }}
      />
      <TaxonomyDrawer
        kind="course"
        open={managing}
        onClose={() => {
          setManaging(false);
          setTreeVersion((v) => v + 1);
          reload();
        }}
      />
    </div>
  );
}
