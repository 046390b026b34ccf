import '@/pages/message/catalogue';
import { SyncOutlined, WechatOutlined } from '@ant-design/icons';
import { useAccess, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Popconfirm } from 'antd';
import { useMemo, useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import { ignoreShownError } from '@/utils/request';
import AccountsDrawer from './accounts';
import { type Follower, followerDescriptor, tagNames, unbindFollower } from './descriptor';
import { BindDialog, RemarkDialog, SyncDialog, TagDialog } from './dialogs';

/**
 * /message/followers: the followers of the tenant's WeChat official accounts (managed in a drawer), synced from
 * WeChat, bound to a trainee, staff member or doctor, tagged and given a remark on WeChat.
 */
export default function FollowerPage() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const access = useAccess();
  const actionRef = useRef<TableActions>();
  const [accountsOpen, setAccountsOpen] = useState(false);
  const [syncing, setSyncing] = useState(false);
  const [binding, setBinding] = useState<Follower>();
  const [remarking, setRemarking] = useState<Follower>();
  const [tagging, setTagging] = useState<string[]>();
  const { data: names = new Map<string, string>(), refresh: refreshNames } = useRequest(tagNames);
  const descriptor = useMemo(() => followerDescriptor(names), [names]);
  const reload = () => actionRef.current?.reload();
  const closed = (close: () => void) => () => {
    close();
    reload();
  };
  return (
    <div data-testid="message-follower">
      <ResourceTable<Follower>
        descriptor={descriptor}
        actionRef={actionRef}
        toolbarExtra={[
          <Button
            key="accounts"
            icon={<WechatOutlined />}
            data-testid="follower-accounts"
            onClick={() => setAccountsOpen(true)}
          >
            {t('message.wechat.accounts')}
          </Button>,
          access['message:follower:sync'] && (
            <Button
              key="sync"
              type="primary"
              icon={<SyncOutlined />}
              data-testid="follower-sync"
              onClick={() => setSyncing(true)}
            >
              {t('message.follower.sync')}
            </Button>
          ),
        ]}
        rowActions={(row, { can }) => [
          can('message:follower:bind') && !row.boundPersonId && (
            <ActionLink key="bind" data-testid="follower-bind" onClick={() => setBinding(row)}>
              {t('message.follower.bind')}
            </ActionLink>
          ),
          can('message:follower:bind') && row.boundPersonId && (
            <Popconfirm
              key="unbind"
              title={t('message.follower.unbind.confirm', { name: row.boundPersonName ?? '' })}
              onConfirm={() => unbindFollower(row).then(reload, ignoreShownError)}
            >
              <ActionLink data-testid="follower-unbind">{t('message.follower.unbind')}</ActionLink>
            </Popconfirm>
          ),
          can('message:follower:update') && row.subscribeStatus === 'subscribed' && (
            <ActionLink key="remark" data-testid="follower-remark" onClick={() => setRemarking(row)}>
              {t('message.follower.remark.edit')}
            </ActionLink>
          ),
        ]}
        batchActions={(ids, { can }) =>
          can('message:follower:update')
            ? [
                <Button key="tag" size="small" data-testid="follower-tag" onClick={() => setTagging(ids)}>
                  {t('message.follower.tag')}
                </Button>,
              ]
            : []
        }
      />
      <AccountsDrawer
        open={accountsOpen}
        onClose={() => {
          setAccountsOpen(false);
          refreshNames();
          reload();
        }}
      />
      <SyncDialog
        open={syncing}
        onClose={() => setSyncing(false)}
        onDone={closed(() => {
          setSyncing(false);
          refreshNames();
        })}
      />
      <BindDialog row={binding} onClose={() => setBinding(undefined)} onDone={closed(() => setBinding(undefined))} />
      <RemarkDialog
        row={remarking}
        onClose={() => setRemarking(undefined)}
        onDone={closed(() => setRemarking(undefined))}
      />
      <TagDialog
        ids={tagging}
        onClose={() => setTagging(undefined)}
        onDone={closed(() => {
          setTagging(undefined);
          actionRef.current?.clearSelected?.();
        })}
      />
    </div>
  );
}
