import { ProForm } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import RecordModalForm from '@/components/RecordModalForm';
import type { Organization } from './descriptor';
import OrganizationPicker from './OrganizationPicker';
import { moveOrganization } from './service';

/** The top of the tree, as the picker offers it (sent as `parentId: null`). */
const TOP = 'top';

/**
 * "Move to": the new parent picked from the tree, one level at a time. The node itself and everything under it are
 * not offered (the server refuses them too, as it refuses a type the new parent may not hold: shown on the field).
 */
export default function MoveDialog({
  record,
  onClose,
  onMoved,
}: {
  record?: Organization;
  onClose: () => void;
  onMoved: () => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  return (
    <RecordModalForm<{ parentId?: string }>
      record={record}
      title={t('people.organization.move.title', { name: record?.name ?? '' })}
      initialValues={{}}
      submitTestId="move-submit"
      save={(values, options) =>
        moveOrganization(
          record?.id ?? '',
          {
            parentId: values.parentId && values.parentId !== TOP ? values.parentId : null,
            version: record?.version ?? 0,
          },
          options,
        )
      }
      onClose={onClose}
      onSaved={onMoved}
    >
      <ProForm.Item name="parentId" label={t('people.organization.move.target')} rules={[{ required: true }]}>
        <OrganizationPicker
          key={record?.id}
          data-testid="move-target"
          before={[{ value: TOP, title: t('people.organization.move.top') }]}
          exclude={record?.id}
        />
      </ProForm.Item>
    </RecordModalForm>
  );
}
