import '@/pages/people/catalogue';
import { DragSortTable, ProForm } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Empty } from 'antd';
import ResourceProfile from '@/components/resource/ResourceProfile';
import ResourceTable from '@/components/resource/ResourceTable';
import useCan from '@/hooks/useCan';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import ArchiveLink from '../../trainee-field/ArchiveLink';
import CustomFields from '../../trainee-field/CustomFields';
import {
  reorderFields,
  type TraineeField,
  traineeFieldDescriptor,
  traineeFields,
} from '../../trainee-field/descriptor';
import { type TraineeType, traineeTypeDescriptor } from '../descriptor';

/** The type's fields: defined, edited, archived here; dragged into their order; and its form as it renders. */
function Fields({ type }: { type: TraineeType }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const canReorder = useCan('people:trainee-field:reorder');
  const { data, refresh, mutate } = useRequest(
    () => traineeFields.list({ traineeTypeId: type.id, pageSize: '200', sort: 'sort' }).then(({ data: rows }) => rows),
    { refreshDeps: [type.id], onError: ignoreShownError },
  );
  const fields: TraineeField[] = data ?? [];
  const reorder = async (_from: number, _to: number, ordered: TraineeField[]) => {
    mutate(ordered);
    const saved = await reorderFields({ traineeTypeId: type.id, ids: ordered.map((f) => f.id) }).then(
      (rows) => rows,
      () => undefined,
    );
    if (saved) message.success(t('people.trainee-field.reordered'));
    else refresh();
  };
  return (
    <>
      <Card title={t('people.trainee-type.fields')} data-testid="trainee-type-fields">
        <ResourceTable<TraineeField>
          descriptor={traineeFieldDescriptor}
          params={{ traineeTypeId: type.id }}
          createDefaults={{
            traineeTypeId: type.id,
            fieldType: 'text',
            uniqueScope: 'none',
            visibility: 'self_and_admin',
          }}
          onChanged={refresh}
          rowActions={(row, { can: allowed, reload }) =>
            allowed('people:trainee-field:archive')
              ? [
                  <ArchiveLink
                    key="archive"
                    row={row}
                    onDone={() => {
                      reload();
                      refresh();
                    }}
                  />,
                ]
              : []
          }
        />
      </Card>
      {canReorder && fields.length > 1 && (
        <Card title={t('people.trainee-field.sort')} data-testid="trainee-type-order">
          <DragSortTable<TraineeField>
            rowKey="id"
            search={false}
            options={false}
            pagination={false}
            size="small"
            dataSource={fields}
            dragSortKey="sort"
            onDragSortEnd={reorder}
            columns={[
              { title: t('people.trainee-field.sort'), dataIndex: 'sort', width: 60, className: 'drag-visible' },
              { title: t('people.trainee-field.label'), dataIndex: 'label' },
              { title: t('people.trainee-field.key'), dataIndex: 'key' },
              { title: t('people.trainee-field.groupName'), dataIndex: 'groupName' },
            ]}
          />
        </Card>
      )}
      <Card title={t('people.trainee-type.preview')} data-testid="trainee-type-preview">
        {fields.some((f) => f.status === 'active') ? (
          <ProForm key={fields.map((f) => `${f.id}:${f.version}`).join()} submitter={false} layout="vertical">
            <CustomFields fields={fields} />
          </ProForm>
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('people.trainee-type.preview.empty')} />
        )}
      </Card>
    </>
  );
}

/** /user/trainee-type/:id/detail: the type, its fields (defined, ordered, archived) and a preview of its form. */
export default function TraineeTypeDetail() {
  return (
    <div data-testid="trainee-type-detail">
      <ResourceProfile<TraineeType> descriptor={traineeTypeDescriptor}>
        {(type) => <Fields type={type} />}
      </ResourceProfile>
    </div>
  );
}
