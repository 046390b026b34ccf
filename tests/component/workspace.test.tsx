import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { InitialState } from '@/utils/session';
import { fakeApi } from './fake-api';
import { freshStore, renderApp, type TestStore } from './harness';

const model = vi.hoisted(() => ({ initialState: undefined as InitialState | undefined }));
vi.mock('@umijs/max', async (importOriginal) => {
  const original = await importOriginal<{ history: unknown }>();
  return {
    ...original,
    get history() {
      return original.history;
    },
    useModel: () => model,
  };
});

const { default: Workspace } = await import('@/pages/dashboard/workspace');

vi.setConfig({ testTimeout: 60_000 });
let store: TestStore;
beforeEach(() => {
  store = freshStore();
  model.initialState = {
    name: '管理员',
    currentUser: {
      userId: '1',
      userName: 'admin',
      displayName: '管理员',
      email: null,
      mobile: null,
      version: 0,
      permissions: [],
      roles: [],
      tenant: { id: '1', code: 'demo', name: '演示医院' },
      orgId: null,
      clientType: 'console',
      mustChangePassword: false,
    },
  };
});

const entry = (id: string, action: string, actionName: string | null) => ({
  id,
  action,
  actionName,
  actionNameEn: null,
  resourceType: 'teaching_activity',
  resourceId: '3',
  summary: '心肺复苏技能培训',
  createdAt: '2026-11-27T09:59:00.000Z',
});

describe('/dashboard/workspace', () => {
  it("names each recent action by the server's name, or its code when the server knows none", async () => {
    fakeApi({
      'GET /api/dashboard/workspace': () => ({
        body: {
          cards: [],
          activity: [
            entry('2', 'teaching:activity:unknown', null),
            entry('1', 'teaching:activity:publish', '教学活动 · 发布'),
          ],
        },
      }),
    });
    render(renderApp({ store, children: <Workspace /> }).tree);
    const [completed, published] = await screen.findAllByTestId('workspace-activity-item');
    expect(within(completed as HTMLElement).getByText(/teaching:activity:unknown/)).toBeInTheDocument();
    expect(published).toHaveTextContent('教学活动 · 发布 · 心肺复苏技能培训');
  });
});
