import '@/pages/content/catalogue';
import { ProFormSelect } from '@ant-design/pro-components';
import type { CreateTag, Tag, TagOption, UpdateTag } from '@server/modules/content/tag/tag.resource';
import { useIntl } from '@umijs/max';
import { Tag as ColourTag, Popconfirm, Typography } from 'antd';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import RecordModalForm from '@/components/RecordModalForm';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import { describeResource } from '@/components/resource/types';
import { resourceService } from '@/services/resource';
import message from '@/utils/message';
import request, { ignoreShownError } from '@/utils/request';

export type { Tag, TagOption };

export const tagService = resourceService<Tag, CreateTag, UpdateTag>('content/tag');
/** Enabled tags of a scope (and general ones) whose name or alias contains `q`: autocomplete. */
export const tagOptions = (scope: Tag['scope'], q?: string) =>
  request.get<TagOption[]>('/api/content/tag/options', { params: { scope, ...(q ? { q } : {}) } });
const detachTag = (row: Tag) => tagService.action<Tag>(row.id, 'detach', { version: row.version });

const SCOPES: Tag['scope'][] = ['document', 'post', 'question', 'course', 'general'];
const FORM = ['name', 'scope', 'groupName', 'color', 'sort', 'status', 'remark'] as const;

/** Tags (docs/domain.md §5.3): /doc/tag, API content/tag, permission prefix doc:tag. */
export const tagDescriptor = describeResource<Tag, CreateTag, UpdateTag>(
  'doc/tag',
  (column) => ({
    auditType: 'tag',
    recordName: (row) => row.name,
    form: { create: [...FORM], update: [...FORM] },
    columns: [
      column('keyword', { searchOnly: true }),
      column('name', {
        hideInSearch: true,
        sorter: true,
        required: true,
        render: (_dom, row) => <ColourTag color={row.color ?? undefined}>{row.name}</ColourTag>,
      }),
      column('scope', { options: SCOPES.map((value) => ({ value, labelId: `content.tag.scope.${value}` })) }),
      column('groupName', { hideInSearch: true }),
      column('color', { hideInSearch: true, hideInTable: true }),
      column('aliases', {
        hideInSearch: true,
        hideInForm: true,
        render: (_dom, row) => row.aliases.join('、') || '-',
      }),
      column('usageCount', { hideInSearch: true, hideInForm: true, sorter: true }),
      column('sort', { valueType: 'digit', hideInSearch: true, hideInTable: true }),
      column('status', { dict: 'common_status' }),
      column('remark', { valueType: 'textarea', hideInSearch: true, hideInTable: true }),
      column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
    ],
  }),
  { resource: 'content/tag', titles: 'content.tag' },
);

/** Which tags go into `target`: others of its scope, found as they are typed. */
function MergeDialog({ target, onClose, onDone }: { target?: Tag; onClose: () => void; onDone: () => void }) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  return (
    <RecordModalForm<{ sourceIds: string[] }>
      record={target}
      title={target ? t('content.tag.merge.title', { name: target.name }) : ''}
      initialValues={{ sourceIds: [] }}
      submitTestId="tag-merge-submit"
      save={({ sourceIds }, options) =>
        tagService.action<Tag>(target?.id ?? '', 'merge', { sourceIds, version: target?.version }, options)
      }
      onClose={onClose}
      onSaved={onDone}
    >
      <Typography.Paragraph type="secondary">{t('content.tag.merge.hint')}</Typography.Paragraph>
      <ProFormSelect
        name="sourceIds"
        label={t('content.tag.merge.sources')}
        mode="multiple"
        rules={[{ required: true }]}
        showSearch
        debounceTime={300}
        request={async ({ keyWords }) =>
          target ? (await tagOptions(target.scope, keyWords)).filter((o) => o.value !== target.id) : []
        }
      />
    </RecordModalForm>
  );
}

/** /doc/tag: tags by scope and group, merged into one another, detached from their records before deletion. */
export default function TagPage() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  const actionRef = useRef<TableActions>();
  const [merging, setMerging] = useState<Tag>();
  const reload = () => actionRef.current?.reload();
  return (
    <div data-testid="content-tag">
      <ResourceTable<Tag>
        descriptor={tagDescriptor}
        actionRef={actionRef}
        createDefaults={{ scope: 'document', status: 'enabled' }}
        rowActions={(row, { can }) => [
          can('doc:tag:merge') && (
            <ActionLink key="merge" data-testid="tag-merge-open" onClick={() => setMerging(row)}>
              {t('content.tag.merge')}
            </ActionLink>
          ),
          row.usageCount > 0 && can('doc:tag:delete') && (
            <Popconfirm
              key="detach"
              title={t('content.tag.detach.confirm', { count: row.usageCount })}
              onConfirm={() =>
                detachTag(row).then(() => {
                  message.success(t('content.tag.detached'));
                  reload();
                }, ignoreShownError)
              }
            >
              <ActionLink data-testid="tag-detach">{t('content.tag.detach')}</ActionLink>
            </Popconfirm>
          ),
        ]}
      />
      <MergeDialog
        target={merging}
        onClose={() => setMerging(undefined)}
        onDone={() => {
          setMerging(undefined);
          reload();
        }}
      />
    </div>
  );
}
