import '@/pages/file/catalogue';
import { useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Alert, Modal } from 'antd';
import ActionLink from '@/components/ActionLink';
import ResourceTable, { type RowActionContext } from '@/components/resource/ResourceTable';
import message from '@/utils/message';
import {
  fetchStorageSharing,
  type StorageConfig,
  setMasterStorage,
  storageDescriptor,
  testStorage,
} from './descriptor';

/**
 * /oss/list: where the tenant's files are stored. A configuration can be probed (write, read, delete an object) and
 * made the master, which takes every new file. When the tenant's files go to the local disk and the live server
 * instances do not share it, a warning says that a file is then found only through the instance that stored it.
 */
export default function StoragePage() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const [modal, contextHolder] = Modal.useModal();
  const { data: sharing } = useRequest(fetchStorageSharing, { onError: () => undefined });

  const probe = async (row: StorageConfig) => {
    const answer = await testStorage(row.id).catch(() => undefined);
    if (!answer) return;
    if (answer.ok) message.success(t('file.storage.testOk', { ms: answer.ms }));
    else message.error(t('file.storage.testFailed', { message: answer.message }));
  };

  const makeMaster = (row: StorageConfig, { reload }: RowActionContext) =>
    modal.confirm({
      title: t('file.storage.setMaster'),
      content: t('file.storage.setMasterConfirm', { name: row.name }),
      okText: t('resource.ok'),
      cancelText: t('resource.cancel'),
      okButtonProps: { 'data-testid': 'confirm-ok' },
      // a failed call closes the confirmation; the request layer has said why
      onOk: () =>
        setMasterStorage(row.id, row.version).then(
          () => {
            // the page lets the browser reach the stores it was served with: a new S3 store, once reloaded
            if (row.provider === 's3') message.info(t('file.storage.reloadForDirect'));
            reload();
          },
          () => undefined,
        ),
    });

  return (
    <div data-testid="file-storage">
      {sharing?.usesLocalDisk && !sharing.localDiskShared && (
        <Alert
          type="warning"
          showIcon
          data-testid="storage-not-shared"
          message={t('file.storage.notShared', { instances: sharing.instances })}
          style={{ marginBottom: 16 }}
        />
      )}
      <Alert type="info" showIcon message={t('file.storage.fallback')} style={{ marginBottom: 16 }} />
      <ResourceTable<StorageConfig>
        descriptor={storageDescriptor}
        createDefaults={{ provider: 'local', status: 'enabled', pathStyle: false }}
        rowActions={(row, context) => [
          context.can('file:storage:test') && (
            <ActionLink key="test" data-testid="row-test" onClick={() => probe(row)}>
              {t('file.storage.test')}
            </ActionLink>
          ),
          context.can('file:storage:set-master') && !row.isMaster && row.status === 'enabled' && (
            <ActionLink key="master" data-testid="row-set-master" onClick={() => makeMaster(row, context)}>
              {t('file.storage.setMaster')}
            </ActionLink>
          ),
        ]}
      />
      {contextHolder}
    </div>
  );
}
