import { BellOutlined } from '@ant-design/icons';
import { useIntl, useSelector } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Badge, Button, Empty, List, Popover, Segmented, Space, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import type { RootState } from '@/models/root';
import { type InboxMessage, inboxPage, markAllRead, markRead, unreadCount } from '@/services/inbox';
import { hasAccessToken } from '@/utils/store';

/** How often the unread count is read while the console is open (and whenever its window comes back into focus). */
const POLL_MS = 60_000;

function Item({ item, onRead }: { item: InboxMessage; onRead: (item: InboxMessage) => void }) {
  const [open, setOpen] = useState(false);
  return (
    <List.Item
      data-testid="inbox-item"
      data-unread={!item.readAt || undefined}
      style={{ cursor: 'pointer', alignItems: 'flex-start' }}
      onClick={() => {
        setOpen(!open);
        if (!item.readAt) onRead(item);
      }}
    >
      <List.Item.Meta
        avatar={<Badge dot={!item.readAt} />}
        title={<Typography.Text strong={!item.readAt}>{item.title ?? item.content.slice(0, 30)}</Typography.Text>}
        description={
          <>
            <Typography.Paragraph
              ellipsis={open ? false : { rows: 2 }}
              style={{ marginBottom: 4, whiteSpace: 'pre-wrap' }}
              data-testid="inbox-content"
            >
              {item.content}
            </Typography.Paragraph>
            <Typography.Text type="secondary">{dayjs(item.createdAt).format('YYYY-MM-DD HH:mm')}</Typography.Text>
          </>
        }
      />
    </List.Item>
  );
}

/**
 * The header's bell: the signed-in user's unread in-app messages, counted on its badge; opened, the latest of them (or
 * of all), read by a click, or all at once.
 */
export default function InboxBell() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const [open, setOpen] = useState(false);
  const [unreadOnly, setUnreadOnly] = useState(true);
  // asked only while signed in: a 401 of its own would end a sign-in the console is still making (a deep link's)
  const signedIn = useSelector((state: { root: RootState }) => hasAccessToken(state.root));
  const count = useRequest(unreadCount, {
    ready: signedIn,
    refreshDeps: [signedIn],
    pollingInterval: POLL_MS,
    refreshOnWindowFocus: true,
  });
  const list = useRequest(() => inboxPage(unreadOnly), { ready: open, refreshDeps: [unreadOnly, open] });
  const refresh = () => {
    count.refresh();
    list.refresh();
  };
  const read = (item: InboxMessage) => {
    list.mutate(
      (page) =>
        page && {
          ...page,
          data: page.data.map((m) => (m.id === item.id ? { ...m, readAt: new Date().toISOString() } : m)),
        },
    );
    count.mutate((n) => Math.max(0, (n ?? 1) - 1));
    markRead([item.id]).then(
      () => count.refresh(),
      () => count.refresh(),
    );
  };

  const content = (
    <div style={{ width: 360 }} data-testid="inbox-panel">
      <Space style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }}>
        <Segmented
          size="small"
          value={unreadOnly ? 'unread' : 'all'}
          onChange={(v) => setUnreadOnly(v === 'unread')}
          options={[
            { value: 'unread', label: t('layout.inbox.unread') },
            { value: 'all', label: t('layout.inbox.all') },
          ]}
        />
        <Button
          size="small"
          type="link"
          data-testid="inbox-read-all"
          disabled={!count.data}
          onClick={() => markAllRead().then(refresh, refresh)}
        >
          {t('layout.inbox.readAll')}
        </Button>
      </Space>
      <List
        size="small"
        loading={list.loading}
        dataSource={list.data?.data ?? []}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('layout.inbox.empty')} /> }}
        renderItem={(item) => <Item key={item.id} item={item} onRead={read} />}
        style={{ maxHeight: 420, overflow: 'auto' }}
      />
    </div>
  );

  return (
    <Popover
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) count.refresh();
      }}
      title={t('layout.inbox')}
      content={content}
    >
      <Button type="text" aria-label={t('layout.inbox')} data-testid="inbox-bell">
        <Badge count={count.data ?? 0} size="small" data-testid="inbox-count" data-count={count.data ?? 0}>
          <BellOutlined />
        </Badge>
      </Button>
    </Popover>
  );
}
