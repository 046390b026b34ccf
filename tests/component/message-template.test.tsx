import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import MessageTemplatePage from '@/pages/message/template';
import type { BusinessItem, MessageTemplate } from '@/pages/message/template/descriptor';
import { fakeApi } from './fake-api';
import { freshStore, renderApp, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const item: BusinessItem = {
  id: '3',
  code: 'paper.published',
  name: '试卷发布',
  nameEn: 'Exam paper published',
  module: 'assess',
  description: null,
  notifiable: true,
  variables: [
    { name: 'paperName', label: '试卷名称', example: '内科出科考核' },
    { name: 'startAt', label: '开始时间', type: 'date' },
  ],
  defaultChannels: ['in_app'],
  defaultTemplateCode: null,
  auditLevel: 'normal',
  status: 'enabled',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 0,
};
const template = (over: Partial<MessageTemplate>): MessageTemplate => ({
  id: '7',
  code: 'paper.notice',
  name: '试卷发布通知',
  channel: 'in_app',
  businessItemCode: 'paper.published',
  businessItemName: '试卷发布',
  senderName: null,
  titleTemplate: '{paperName} 已发布',
  contentTemplate: '请参加 {paperName}',
  params: ['paperName'],
  unknownParams: [],
  wechatAccountId: null,
  externalTemplateId: null,
  example: null,
  dataMapping: null,
  jumpUrl: null,
  status: 'enabled',
  remark: null,
  scope: 'tenant',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 2,
  ...over,
});
const own = template({});
const shared = template({ id: '8', code: 'platform.notice', name: '平台通知', scope: 'platform' });
const codes = ['list', 'create', 'update', 'delete', 'export', 'test-send'].map((a) => `message:template:${a}`);
const access = Object.fromEntries(codes.map((c) => [c, true]));

let store: TestStore;
beforeEach(() => {
  store = freshStore([
    { type: 'common_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

function mount(extra: Parameters<typeof fakeApi>[0] = {}) {
  const api = fakeApi({
    'GET /api/message/template': () => ({
      body: { data: [own, shared], total: 2, success: true, current: 1, pageSize: 10 },
    }),
    'GET /api/dictionary/busiitem': () => ({
      body: { data: [item], total: 1, success: true, current: 1, pageSize: 200 },
    }),
    ...extra,
  });
  render(renderApp({ store, access, children: <MessageTemplatePage /> }).tree);
  return api;
}

describe('/message/template', () => {
  it('locks the platform’s templates and test-sends one with sample values, showing the answer', async () => {
    const api = mount({
      'POST /api/message/template/8/test-send': () => ({ body: { messageId: '99', status: 'queued' } }),
    });
    const mine = (await screen.findByText('paper.notice')).closest('tr') as HTMLElement;
    const theirs = screen.getByText('platform.notice').closest('tr') as HTMLElement;
    expect(within(mine).getByTestId('row-edit')).toBeInTheDocument();
    expect(within(theirs).queryByTestId('row-edit')).toBeNull();
    expect(within(theirs).getByText('平台')).toHaveClass('ant-tag');

    fireEvent.click(within(theirs).getByTestId('template-test-send'));
    fireEvent.change(await screen.findByTestId('sample-paperName'), { target: { value: '外科考核' } });
    fireEvent.click(screen.getByTestId('test-send-submit'));
    await waitFor(() => expect(api.find('POST', '/api/message/template/8/test-send')).toHaveLength(1));
    expect(api.find('POST', '/api/message/template/8/test-send')[0].body).toEqual({
      params: { paperName: '外科考核' },
    });
    expect(await screen.findByTestId('test-send-answer')).toHaveTextContent('"status": "queued"');
  });

  it('inserts a variable at the cursor, previews the draft and warns about undeclared variables after saving', async () => {
    const api = mount({
      'POST /api/message/template/preview': () => ({
        body: {
          title: '内科出科考核 已发布',
          content: '请参加 内科出科考核 {room}',
          params: ['paperName', 'room'],
          missing: ['paperName', 'room'],
          unknownParams: ['room'],
        },
      }),
      'PUT /api/message/template/7': (call) => ({
        body: { ...own, ...(call.body as object), params: ['paperName', 'startAt', 'room'], unknownParams: ['room'] },
      }),
    });
    const row = (await screen.findByText('paper.notice')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-edit'));
    const content = (await screen.findByTestId('form-contentTemplate')) as HTMLTextAreaElement;
    // the cursor after 请参加: the chip's variable goes there
    fireEvent.change(content, { target: { value: '请参加 {paperName} {room}', selectionStart: 4, selectionEnd: 4 } });
    content.setSelectionRange(4, 4);
    fireEvent.select(content);
    fireEvent.click(await screen.findByTestId('variable-startAt'));
    await waitFor(() => expect(content).toHaveValue('请参加 {startAt}{paperName} {room}'));
    expect(await screen.findByTestId('unknown-params')).toHaveTextContent('room');

    fireEvent.click(screen.getByTestId('template-preview-run'));
    expect(await screen.findByTestId('template-preview-result')).toHaveTextContent('请参加 内科出科考核 {room}');
    expect(api.find('POST', '/api/message/template/preview')[0].body).toMatchObject({
      businessItemCode: 'paper.published',
      titleTemplate: '{paperName} 已发布',
      contentTemplate: '请参加 {startAt}{paperName} {room}',
      params: {},
    });

    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('PUT', '/api/message/template/7')).toHaveLength(1));
    expect(api.find('PUT', '/api/message/template/7')[0].body).toMatchObject({
      contentTemplate: '请参加 {startAt}{paperName} {room}',
      version: 2,
    });
    expect(await screen.findByText(/以下变量未在业务事项中声明.*room/)).toBeInTheDocument();
  });
});
