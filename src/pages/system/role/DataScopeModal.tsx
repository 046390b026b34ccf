import { ProForm, ProFormDependency, ProFormSelect } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import RecordModalForm from '@/components/RecordModalForm';
import { dictEnum } from '@/components/resource/dict';
import OrganizationPicker from '@/pages/people/organization/OrganizationPicker';
import type { Role } from './descriptor';
import { saveDataScope } from './service';

interface Props {
  role?: Role;
  onClose: () => void;
  onSaved: () => void;
}

/** The role's data scope; organisations, picked from the tree, only (and then required) for a custom scope. */
export default function DataScopeModal({ role, onClose, onSaved }: Props) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  return (
    <RecordModalForm<{ dataScope: Role['dataScope']; dataScopeOrgIds?: string[] }>
      record={role}
      title={t('system.role.dataScope.title', { name: role?.name ?? '' })}
      initialValues={{ dataScope: role?.dataScope, dataScopeOrgIds: role?.dataScopeOrgIds ?? [] }}
      submitTestId="data-scope-submit"
      save={({ dataScope, dataScopeOrgIds }, options) =>
        saveDataScope(
          role!.id,
          { dataScope, dataScopeOrgIds: dataScope === 'org_custom' ? (dataScopeOrgIds ?? []) : [] },
          options,
        )
      }
      onClose={onClose}
      onSaved={onSaved}
    >
      <ProFormSelect
        name="dataScope"
        label={t('system.role.dataScope')}
        rules={[{ required: true }]}
        options={[...dictEnum('data_scope', undefined, intl.locale)].map(([value, { text }]) => ({
          value,
          label: text,
        }))}
        fieldProps={{ 'data-testid': 'data-scope-select' } as object}
      />
      <ProFormDependency name={['dataScope']}>
        {({ dataScope }) =>
          dataScope === 'org_custom' && (
            <ProForm.Item
              name="dataScopeOrgIds"
              label={t('system.role.dataScope.orgIds')}
              tooltip={t('system.role.dataScope.orgIdsHint')}
              rules={[{ required: true, type: 'array' }]}
            >
              <OrganizationPicker multiple data-testid="data-scope-orgs" />
            </ProForm.Item>
          )
        }
      </ProFormDependency>
    </RecordModalForm>
  );
}
