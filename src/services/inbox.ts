import request from '@/utils/request';

/** One in-app message of the signed-in user (API message/inbox). */
export interface InboxMessage {
  id: string;
  title: string | null;
  content: string;
  businessItemCode: string | null;
  bizRefType: string | null;
  bizRefId: string | null;
  createdAt: string;
  readAt: string | null;
}

const base = '/api/message/inbox';

export const unreadCount = () => request.get<{ count: number }>(`${base}/unread-count`).then((r) => r.count);
export const inboxPage = (unread: boolean, pageSize = 10) =>
  request.get<{ data: InboxMessage[]; total: number }>(base, {
    params: { current: '1', pageSize: String(pageSize), ...(unread && { unread: 'true' }) },
  });
export const markRead = (ids: string[]) => request.post<{ count: number }>(`${base}/read`, { data: { ids } });
export const markAllRead = () => request.post<{ count: number }>(`${base}/read-all`);
