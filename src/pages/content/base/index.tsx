import '@/pages/content/catalogue';
import { ProFormDependency, ProFormList, ProFormSelect } from '@ant-design/pro-components';
import type {
  CreateDocumentBase,
  DocumentBase,
  GrantRow,
  UpdateDocumentBase,
} from '@server/modules/content/base/document-base.resource';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Typography } from 'antd';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import RecordModalForm from '@/components/RecordModalForm';
import EmptyState from '@/components/resource/EmptyState';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import { describeResource } from '@/components/resource/types';
import { organizationPicker } from '@/pages/people/organization/pickers';
import { fetchTypes } from '@/pages/people/trainee/descriptor';
import { fetchRoleOptions } from '@/pages/system/admin/service';
import { resourceService } from '@/services/resource';
import request, { ignoreShownError } from '@/utils/request';

export type { DocumentBase };

export const documentBases = resourceService<DocumentBase, CreateDocumentBase, UpdateDocumentBase>(
  'content/document-base',
);
const grantsPath = (id: string) => `/api/content/document-base/${id}/grants`;

/** Libraries as choices (a document's library, a move's target). */
export const baseChoices = () =>
  documentBases
    .list({ pageSize: '200', sort: 'sort,code' })
    .then(({ data }) => data.map((b) => ({ value: b.id, label: b.name })));

const VISIBILITIES: DocumentBase['visibility'][] = ['public', 'tenant', 'restricted'];
const SUBJECTS: GrantRow['subjectType'][] = ['role', 'org', 'trainee_type', 'admin_user'];
const PERMISSIONS: GrantRow['permission'][] = ['view', 'download', 'manage'];
const FORM = ['code', 'name', 'visibility', 'ownerOrgId', 'sort', 'status', 'description', 'remark'] as const;

/** Document libraries (docs/domain.md §5.1): /doc/base, API content/document-base, permission prefix doc:base. */
export const documentBaseDescriptor = describeResource<DocumentBase, CreateDocumentBase, UpdateDocumentBase>(
  'doc/base',
  (column) => ({
    auditType: 'document_base',
    recordName: (row) => row.name,
    formLayout: 'DrawerForm',
    form: { create: [...FORM], update: [...FORM] },
    columns: [
      column('keyword', { searchOnly: true }),
      column('code', { hideInSearch: true, sorter: true, copyable: true, required: true }),
      column('name', { hideInSearch: true, sorter: true, required: true }),
      column('visibility', {
        options: VISIBILITIES.map((value) => ({
          value,
          labelId: `content.base.visibility.${value}`,
          color: value === 'restricted' ? 'warning' : value === 'public' ? 'success' : 'processing',
        })),
      }),
      column('ownerOrgId', {
        hideInTable: true,
        hideInSearch: true,
        hideInDescriptions: true,
        renderFormItem: organizationPicker,
      }),
      column('ownerOrgName', { hideInSearch: true, hideInForm: true }),
      column('documentCount', { hideInSearch: true, hideInForm: true }),
      column('publishedCount', { hideInSearch: true, hideInForm: true, hideInTable: true }),
      column('viewCount', { hideInSearch: true, hideInForm: true }),
      column('downloadCount', { hideInSearch: true, hideInForm: true }),
      column('grantCount', { hideInSearch: true, hideInForm: true }),
      column('sort', { valueType: 'digit', hideInSearch: true, sorter: true }),
      column('status', { dict: 'common_status' }),
      column('description', { valueType: 'textarea', hideInSearch: true, hideInTable: true }),
      column('remark', { valueType: 'textarea', hideInSearch: true, hideInTable: true }),
      column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
    ],
  }),
  { resource: 'content/document-base', titles: 'content.base' },
);

/** The subjects of a type as choices. */
const subjectChoices = async (type: GrantRow['subjectType']) => {
  if (type === 'role') return (await fetchRoleOptions()).map((r) => ({ value: r.id, label: r.name }));
  if (type === 'trainee_type') return (await fetchTypes()).map((r) => ({ value: r.id, label: r.name }));
  if (type === 'admin_user') {
    const { data } = await request.get<{ data: { id: string; displayName: string; username: string }[] }>(
      '/api/system/admin',
      { params: { pageSize: '200' } },
    );
    return data.map((u) => ({ value: u.id, label: `${u.displayName} (${u.username})` }));
  }
  return [];
};

/** Every grant of a library, edited as a whole. */
function GrantsDialog({ base, onClose, onDone }: { base?: DocumentBase; onClose: () => void; onDone: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { data: grants, loading } = useRequest(
    () => (base ? request.get<GrantRow[]>(grantsPath(base.id)) : Promise.resolve([])),
    { refreshDeps: [base?.id], onError: ignoreShownError },
  );
  if (base && (loading || !grants)) return null;
  return (
    <RecordModalForm<{ grants: Pick<GrantRow, 'subjectType' | 'subjectId' | 'permission'>[] }>
      record={base}
      title={t('content.base.grants.title')}
      initialValues={{
        grants: (grants ?? []).map(({ subjectType, subjectId, permission }) => ({
          subjectType,
          subjectId,
          permission,
        })),
      }}
      submitTestId="base-grants-submit"
      save={(values, options) =>
        request.put(grantsPath(base?.id ?? ''), {
          ...options,
          data: { grants: values.grants ?? [], version: base?.version },
        })
      }
      onClose={onClose}
      onSaved={onDone}
    >
      <Typography.Paragraph type="secondary">{t('content.base.grants.restrictedOnly')}</Typography.Paragraph>
      <ProFormList
        name="grants"
        creatorButtonProps={{ creatorButtonText: t('content.base.grants.add') }}
        creatorRecord={{ subjectType: 'role', permission: 'view' }}
      >
        <ProFormSelect
          name="subjectType"
          label={t('content.base.grant.subjectType')}
          rules={[{ required: true }]}
          options={SUBJECTS.map((value) => ({ value, label: t(`content.base.grant.subjectType.${value}`) }))}
        />
        <ProFormDependency name={['subjectType']}>
          {({ subjectType }) =>
            subjectType === 'org' ? (
              <ProFormSelect
                name="subjectId"
                label={t('content.base.grant.subjectId')}
                rules={[{ required: true }]}
                fieldProps={{ showSearch: true }}
                request={() =>
                  request
                    .get<{ data: { id: string; name: string }[] }>('/api/people/organization', {
                      params: { pageSize: '200' },
                    })
                    .then(({ data }) => data.map((o) => ({ value: o.id, label: o.name })))
                }
              />
            ) : (
              <ProFormSelect
                key={subjectType}
                name="subjectId"
                label={t('content.base.grant.subjectId')}
                rules={[{ required: true }]}
                fieldProps={{ showSearch: true, optionFilterProp: 'label' }}
                params={{ subjectType }}
                request={() => subjectChoices(subjectType)}
              />
            )
          }
        </ProFormDependency>
        <ProFormSelect
          name="permission"
          label={t('content.base.grant.permission')}
          rules={[{ required: true }]}
          options={PERMISSIONS.map((value) => ({ value, label: t(`content.base.grant.permission.${value}`) }))}
        />
      </ProFormList>
    </RecordModalForm>
  );
}

/** /doc/base: the tenant's libraries, who may read them (visibility, grants), and what they hold (stats). */
export default function DocumentBasePage() {
  const intl = useIntl();
  const actionRef = useRef<TableActions>();
  const [granting, setGranting] = useState<DocumentBase>();
  return (
    <div data-testid="content-base">
      <ResourceTable<DocumentBase>
        descriptor={documentBaseDescriptor}
        actionRef={actionRef}
        createDefaults={{ visibility: 'tenant', status: 'enabled', sort: 0 }}
        emptyState={(create) => (
          <EmptyState
            testId="base-empty"
            text={intl.formatMessage({ id: 'content.base.empty' })}
            action={
              create && (
                <Button type="primary" data-testid="base-empty-create" onClick={create}>
                  {intl.formatMessage({ id: 'content.base.empty.create' })}
                </Button>
              )
            }
          />
        )}
        rowActions={(row, { can }) => [
          can('doc:base:grant') && (
            <ActionLink key="grants" data-testid="base-grants" onClick={() => setGranting(row)}>
              {intl.formatMessage({ id: 'content.base.grants' })}
            </ActionLink>
          ),
        ]}
      />
      <GrantsDialog
        base={granting}
        onClose={() => setGranting(undefined)}
        onDone={() => {
          setGranting(undefined);
          actionRef.current?.reload();
        }}
      />
    </div>
  );
}
