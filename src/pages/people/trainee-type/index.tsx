import '@/pages/people/catalogue';
import { ProFormText } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import RecordModalForm from '@/components/RecordModalForm';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import { cloneTraineeType, type TraineeType, traineeTypeDescriptor } from './descriptor';

/**
 * /user/trainee-type: the kinds of trainee; search, create, edit, delete, export and import; clone a type with its
 * fields. A type's screen (its detail) orders its fields and previews its form.
 */
export default function TraineeTypePage() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const actionRef = useRef<TableActions>();
  const [cloning, setCloning] = useState<TraineeType>();
  return (
    <div data-testid="people-trainee-type">
      <ResourceTable<TraineeType>
        descriptor={traineeTypeDescriptor}
        actionRef={actionRef}
        createDefaults={{ status: 'enabled', sort: 0, category: 'residency', requiresRegistrationAudit: false }}
        rowActions={(row, { can }) =>
          can('people:trainee-type:clone')
            ? [
                <ActionLink key="clone" data-testid="row-clone" onClick={() => setCloning(row)}>
                  {t('people.trainee-type.clone')}
                </ActionLink>,
              ]
            : []
        }
      />
      <RecordModalForm<{ code: string; name: string }>
        record={cloning}
        title={t('people.trainee-type.clone.title', { name: cloning?.name ?? '' })}
        initialValues={{ code: cloning ? `${cloning.code}-copy` : '', name: '' }}
        submitTestId="clone-submit"
        save={(values, options) => cloneTraineeType(cloning?.id ?? '', values, options)}
        onClose={() => setCloning(undefined)}
        onSaved={() => {
          setCloning(undefined);
          actionRef.current?.reload();
        }}
      >
        <ProFormText
          name="code"
          label={t('people.trainee-type.code')}
          rules={[{ required: true }]}
          fieldProps={{ 'data-testid': 'clone-code' } as object}
        />
        <ProFormText
          name="name"
          label={t('people.trainee-type.name')}
          rules={[{ required: true }]}
          fieldProps={{ 'data-testid': 'clone-name' } as object}
        />
      </RecordModalForm>
    </div>
  );
}
