import { ModalForm, ProFormDependency, ProFormSelect } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { message } from 'antd';
import { dictEnum } from '@/components/resource/dict';
import type { Role } from './descriptor';
import { saveDataScope } from './service';

interface Props {
  role?: Role;
  onClose: () => void;
  onSaved: () => void;
}

/** The role's data scope; organisation ids only (and then required) for a custom scope. */
export default function DataScopeModal({ role, onClose, onSaved }: Props) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  return (
    <ModalForm<{ dataScope: Role['dataScope']; dataScopeOrgIds?: string[] }>
      key={role?.id}
      open={Boolean(role)}
      title={t('system.role.dataScope.title', { name: role?.name ?? '' })}
      initialValues={{ dataScope: role?.dataScope, dataScopeOrgIds: role?.dataScopeOrgIds ?? [] }}
      modalProps={{ destroyOnHidden: true, onCancel: onClose }}
      submitter={{ submitButtonProps: { 'data-testid': 'data-scope-submit' } }}
      onFinish={async ({ dataScope, dataScopeOrgIds }) => {
        if (!role) return false;
        const body = { dataScope, dataScopeOrgIds: dataScope === 'org_custom' ? (dataScopeOrgIds ?? []) : [] };
        const saved = await saveDataScope(role.id, body).then(
          () => true,
          () => false,
        );
        if (!saved) return false;
        message.success(t('resource.saved'));
        onSaved();
        return true;
      }}
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
            <ProFormSelect
              name="dataScopeOrgIds"
              label={t('system.role.dataScope.orgIds')}
              tooltip={t('system.role.dataScope.orgIdsHint')}
              rules={[{ required: true, type: 'array' }]}
              fieldProps={{ mode: 'tags', open: false, 'data-testid': 'data-scope-orgs' } as object}
            />
          )
        }
      </ProFormDependency>
    </ModalForm>
  );
}
