import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { clearCache } from 'ahooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import InboxBell from '@/components/layout/InboxBell';
import MessageListPage from '@/pages/message/message';
import type { MessageBatch } from '@/pages/message/message/descriptor';
import type { InboxMessage } from '@/services/inbox';
import { dispatchRoot } from '@/utils/store';
import { SendBatch } from '../../server/src/modules/message/message/batch.resource';
import { fakeApi, page, validatedBy } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const codes = ['list', 'export', 'send', 'retry', 'update', 'delete'].map((a) => `message:message:${a}`);

const batch = (id: string, extra: Partial<MessageBatch> = {}): MessageBatch => ({
  id,
  name: '停电通知',
  templateId: '7',
  templateCode: 'notice',
  templateName: '通知',
  channel: 'in_app',
  audience: {
    userIds: [],
    roleIds: ['1'],
    userOrgIds: [],
    traineeIds: [],
    traineeTypeIds: [],
    traineeOrgIds: [],
    cohortYears: [],
  },
  commonParams: {},
  total: 10,
  sentCount: 8,
  failedCount: 2,
  readCount: 1,
  pendingCount: 0,
  status: 'completed',
  scheduledAt: null,
  startedAt: null,
  finishedAt: null,
  createdBy: '1',
  creatorName: '管理员',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: null,
  version: 2,
  ...extra,
});

let store: TestStore;
beforeEach(() => {
  store = freshStore();
  clearCache(); // the business items a test's dialog read are kept a minute: each test answers its own
});
afterEach(() => vi.unstubAllGlobals());

describe('/message/list', () => {
  it('shows each batch’s progress, offers its failures again, and sends a template to a role after a preview', async () => {
    const api = fakeApi({
      'GET /api/message/batch': () =>
        page([batch('1'), batch('2', { status: 'scheduled', failedCount: 0, sentCount: 0 })]),
      'POST /api/message/batch/1/retry': () => ({ body: batch('1', { status: 'sending' }) }),
      'GET /api/message/template': () =>
        page([
          {
            id: '7',
            code: 'notice',
            name: '通知',
            channel: 'in_app',
            params: ['subject', 'name'],
            status: 'enabled',
          },
        ]),
      'GET /api/dictionary/busiitem': () => page([]),
      'GET /api/system/role/options': () => ({ body: [{ id: '1', code: 'admin', name: '管理员' }] }),
      'POST /api/message/batch/preview': () => ({
        body: {
          recipients: 3,
          missing: [],
          sample: { recipientName: '张三', title: '停电', content: '张三，明天停电' },
        },
      }),
      'POST /api/message/batch': validatedBy(SendBatch, () => ({ body: batch('3', { status: 'scheduled' }) })),
    });
    render(renderApp({ store, access: grant(codes), children: <MessageListPage /> }).tree);
    const bars = await screen.findAllByTestId('batch-progress');
    expect(bars).toHaveLength(2);
    const first = screen.getAllByText('停电通知')[0]?.closest('tr') as HTMLElement;
    expect(within(first).queryByTestId('batch-cancel')).toBeNull();
    fireEvent.click(within(first).getByTestId('batch-retry'));
    fireEvent.click(await screen.findByRole('button', { name: /确\s*定|OK/ }));
    await waitFor(() => expect(api.find('POST', '/api/message/batch/1/retry')).toHaveLength(1));
    expect(api.find('POST', '/api/message/batch/1/retry')[0]?.body).toEqual({ version: 2 });
    // no edit or delete of what a send made
    expect(screen.queryByTestId('row-edit')).toBeNull();
    expect(screen.queryByTestId('row-delete')).toBeNull();

    fireEvent.click(screen.getByTestId('message-send'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('批次名称'), { target: { value: '停电' } });
    fireEvent.mouseDown(within(dialog).getByTestId('send-template').querySelector('input') as HTMLElement);
    fireEvent.click(await screen.findByText('通知 (notice · 站内信)'));
    fireEvent.mouseDown(within(dialog).getByTestId('send-roles').querySelector('input') as HTMLElement);
    fireEvent.click(await screen.findByTitle('管理员'));
    fireEvent.change(await within(dialog).findByTestId('send-param-subject'), { target: { value: '停电' } });
    expect(await within(dialog).findByTestId('send-preview-count')).toHaveTextContent('将发送给 3 人');
    expect(within(dialog).getByTestId('send-preview-sample')).toHaveTextContent('张三，明天停电');
    expect(within(dialog).queryByTestId('send-param-name')).toBeNull();
    // a template of no business item names its variables as they are
    expect(within(dialog).getByText('subject')).toBeInTheDocument();
    fireEvent.click(within(dialog).getByTestId('send-submit'));
    await waitFor(() => expect(api.find('POST', '/api/message/batch')).toHaveLength(1));
    expect(api.find('POST', '/api/message/batch')[0]?.body).toMatchObject({
      name: '停电',
      templateId: '7',
      audience: { roleIds: ['1'], userIds: [] },
      params: { subject: '停电' },
    });
  });

  it('names the template’s variables by their business item’s labels, in the fields and in the preview', async () => {
    fakeApi({
      'GET /api/message/batch': () => page([]),
      'GET /api/message/template': () =>
        page([
          {
            id: '8',
            code: 'activity.reminder',
            name: '活动提醒',
            channel: 'in_app',
            businessItemCode: 'activity.reminder',
            params: ['activityName', 'startAt', 'name'],
            status: 'enabled',
          },
        ]),
      'GET /api/dictionary/busiitem': () =>
        page([
          {
            code: 'activity.reminder',
            name: '活动提醒',
            variables: [
              { name: 'activityName', label: '活动名称' },
              { name: 'startAt', label: '开始时间' },
            ],
          },
        ]),
      'GET /api/system/role/options': () => ({ body: [{ id: '1', code: 'admin', name: '管理员' }] }),
      'POST /api/message/batch/preview': () => ({
        body: { recipients: 3, missing: ['activityName', 'startAt'], sample: null },
      }),
    });
    render(
      // a sender reads the business items (the server lets message:message:send list them) without their screen's permission
      renderApp({ store, access: grant(codes), children: <MessageListPage /> }).tree,
    );
    fireEvent.click(await screen.findByTestId('message-send'));
    const dialog = await screen.findByRole('dialog');
    fireEvent.mouseDown(within(dialog).getByTestId('send-template').querySelector('input') as HTMLElement);
    fireEvent.click(await screen.findByText('活动提醒 (activity.reminder · 站内信)'));
    fireEvent.mouseDown(within(dialog).getByTestId('send-roles').querySelector('input') as HTMLElement);
    fireEvent.click(await screen.findByTitle('管理员'));
    expect(await within(dialog).findByText('活动名称 (activityName)')).toBeInTheDocument();
    expect(within(dialog).getByText('开始时间 (startAt)')).toBeInTheDocument();
    expect(
      await within(dialog).findByText('以下变量未填写：活动名称 (activityName), 开始时间 (startAt)'),
    ).toBeInTheDocument();
  });
});

describe('the header inbox', () => {
  it('counts the unread, shows them, and reads one by a click or all at once', async () => {
    let unread = 2;
    const items: InboxMessage[] = [
      {
        id: '11',
        title: '课程提醒',
        content: '心肺复苏课程明天开始',
        businessItemCode: null,
        bizRefType: null,
        bizRefId: null,
        createdAt: '2026-11-01T00:00:00.000Z',
        readAt: null,
      },
      {
        id: '12',
        title: '停电通知',
        content: '明天停电',
        businessItemCode: null,
        bizRefType: null,
        bizRefId: null,
        createdAt: '2026-11-01T00:00:00.000Z',
        readAt: null,
      },
    ];
    const api = fakeApi({
      'GET /api/message/inbox/unread-count': () => ({ body: { count: unread } }),
      'GET /api/message/inbox': () => page(items),
      'POST /api/message/inbox/read': () => {
        unread -= 1;
        return { body: { count: 1 } };
      },
      'POST /api/message/inbox/read-all': () => {
        unread = 0;
        return { body: { count: 1 } };
      },
    });
    dispatchRoot('SET_TOKEN', { accessToken: 'tok', refreshToken: 'r', type: 'bearer' });
    render(renderApp({ store, children: <InboxBell /> }).tree);
    await waitFor(() => expect(screen.getByTestId('inbox-count')).toHaveAttribute('data-count', '2'));
    fireEvent.click(screen.getByTestId('inbox-bell'));
    const shown = await screen.findAllByTestId('inbox-item');
    expect(shown).toHaveLength(2);
    fireEvent.click(shown[0] as HTMLElement);
    await waitFor(() => expect(api.find('POST', '/api/message/inbox/read')).toHaveLength(1));
    expect(api.find('POST', '/api/message/inbox/read')[0]?.body).toEqual({ ids: ['11'] });
    await waitFor(() => expect(screen.getByTestId('inbox-count')).toHaveAttribute('data-count', '1'));
    fireEvent.click(screen.getByTestId('inbox-read-all'));
    await waitFor(() => expect(screen.getByTestId('inbox-count')).toHaveAttribute('data-count', '0'));
  });
});
