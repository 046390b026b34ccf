import '@/pages/message/catalogue';
import { SendOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { useInterval } from 'ahooks';
import { Button, Popconfirm, Tabs } from 'antd';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import useCan from '@/hooks/useCan';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import {
  batchDescriptor,
  cancelBatch,
  type Message,
  type MessageBatch,
  messageDescriptor,
  retryBatch,
  retryMessage,
} from './descriptor';
import SendDialog from './SendDialog';

/** How often a list with a batch on its way is read again. */
const PROGRESS_EVERY_MS = 3000;

/**
 * /message/list: the batches sent (their progress, read as it goes; cancelled, their failures sent again or exported)
 * and every message with its delivery (failed ones sent again); "send a message" picks a template, an audience and
 * the template's values, previews who it reaches and what they read, and sends now or at a time.
 */
export default function MessageListPage() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const canSend = useCan('message:message:send');
  const batchTable = useRef<TableActions>();
  const messageTable = useRef<TableActions>();
  const [tab, setTab] = useState('batches');
  const [sending, setSending] = useState(false);
  const [batchId, setBatchId] = useState<string>();
  const [running, setRunning] = useState(false);
  useInterval(() => batchTable.current?.reload(), running && tab === 'batches' ? PROGRESS_EVERY_MS : undefined);

  const done = (id: string) => () => {
    message.success(t(id));
    batchTable.current?.reload();
    messageTable.current?.reload();
  };
  const showMessages = (row: MessageBatch, failed = false) => {
    setBatchId(`${row.id}${failed ? ':failed' : ''}`);
    setTab('messages');
  };
  const [onlyBatch, onlyFailed] = (batchId ?? '').split(':');

  return (
    <div data-testid="message-list">
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          {
            key: 'batches',
            label: t('message.list.batches'),
            children: (
              <ResourceTable<MessageBatch>
                descriptor={batchDescriptor}
                actionRef={batchTable}
                tableProps={{
                  onLoad: (rows) => setRunning(rows.some((r) => r.status === 'sending' || r.status === 'scheduled')),
                }}
                toolbarExtra={[
                  canSend && (
                    <Button
                      key="send"
                      type="primary"
                      icon={<SendOutlined />}
                      data-testid="message-send"
                      onClick={() => setSending(true)}
                    >
                      {t('message.batch.send')}
                    </Button>
                  ),
                ]}
                rowActions={(row, { can }) => [
                  <ActionLink key="messages" data-testid="batch-messages" onClick={() => showMessages(row)}>
                    {t('message.batch.messages')}
                  </ActionLink>,
                  row.failedCount > 0 && (
                    <ActionLink key="failed" data-testid="batch-failed" onClick={() => showMessages(row, true)}>
                      {t('message.batch.exportFailed')}
                    </ActionLink>
                  ),
                  (row.status === 'scheduled' || row.status === 'sending') && can('message:message:send') && (
                    <Popconfirm
                      key="cancel"
                      title={t('message.batch.cancel.confirm')}
                      onConfirm={() => cancelBatch(row).then(done('message.batch.cancel'), ignoreShownError)}
                    >
                      <ActionLink data-testid="batch-cancel">{t('message.batch.cancel')}</ActionLink>
                    </Popconfirm>
                  ),
                  row.failedCount > 0 && can('message:message:retry') && (
                    <Popconfirm
                      key="retry"
                      title={t('message.batch.retry.confirm', { count: row.failedCount })}
                      onConfirm={() => retryBatch(row).then(done('message.batch.retry'), ignoreShownError)}
                    >
                      <ActionLink data-testid="batch-retry">{t('message.batch.retry')}</ActionLink>
                    </Popconfirm>
                  ),
                ]}
              />
            ),
          },
          {
            key: 'messages',
            label: t('message.list.messages'),
            children: (
              <ResourceTable<Message>
                descriptor={messageDescriptor}
                actionRef={messageTable}
                params={{
                  ...(onlyBatch && { batchId: onlyBatch }),
                  ...(onlyFailed && { status: 'failed' }),
                }}
                toolbarExtra={[
                  batchId && (
                    <Button key="all" data-testid="message-all" onClick={() => setBatchId(undefined)}>
                      {t('message.list.messages')} ×
                    </Button>
                  ),
                ]}
                rowActions={(row, { can }) => [
                  row.status === 'failed' && can('message:message:retry') && (
                    <ActionLink
                      key="retry"
                      data-testid="message-retry"
                      onClick={() => retryMessage(row).then(done('message.message.retry'), ignoreShownError)}
                    >
                      {t('message.message.retry')}
                    </ActionLink>
                  ),
                ]}
              />
            ),
          },
        ]}
      />
      <SendDialog
        open={sending}
        onClose={() => setSending(false)}
        onSent={() => {
          message.success(t('message.batch.sent'));
          setSending(false);
          setTab('batches');
          batchTable.current?.reload();
        }}
      />
    </div>
  );
}
