import type { PermissionPrefix } from '@server/db/seed/permissions';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import ResourceTable from '@/components/resource/ResourceTable';
import type { ResourceDescriptor } from '@/components/resource/types';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

interface Thing {
  id: string;
  version: number;
  name: string;
  note: string | null;
}

const descriptor = (formLayout: 'ModalForm' | 'DrawerForm'): ResourceDescriptor<Thing, never, never> => ({
  resource: 'things',
  auditType: 'thing',
  // a throwaway entity: its codes are in no manifest
  permission: 'demo:thing' as PermissionPrefix,
  titleId: 'system.admin.entity',
  formLayout,
  form: { create: ['name', 'note'], update: ['name', 'note'] },
  columns: [
    { dataIndex: 'name', titleId: 'system.admin.userName', hideInSearch: true },
    { dataIndex: 'note', titleId: 'system.admin.remark', hideInSearch: true },
  ],
});

vi.setConfig({ testTimeout: 60_000 });

let store: TestStore;
beforeEach(() => {
  store = freshStore([]);
});

function mount(formLayout: 'ModalForm' | 'DrawerForm') {
  const api = fakeApi({
    'GET /api/things': () => ({ body: { data: [], total: 0, success: true } }),
    'POST /api/things': (call) => ({ status: 201, body: { id: '3', version: 0, ...(call.body as object) } }),
  });
  const { tree } = renderApp({
    store,
    access: grant(['list', 'create', 'update'].map((a) => `demo:thing:${a}`)),
    children: <ResourceTable<Thing> descriptor={descriptor(formLayout)} />,
  });
  render(tree);
  return api;
}

async function openCreate() {
  fireEvent.click(await screen.findByTestId('table-create'));
  await screen.findByText('新建管理员', {}, { timeout: 10_000 });
}

const pressEscape = () =>
  fireEvent.keyDown(
    document.querySelector('.resource-form .ant-modal-wrap, .resource-form .ant-drawer-content-wrapper') as Element,
    { key: 'Escape', keyCode: 27 },
  );
const formOpen = () => document.querySelector('.resource-form input[data-testid="form-name"]') !== null;
const leaving = () => {
  const event = new Event('beforeunload', { cancelable: true });
  window.dispatchEvent(event);
  return event.defaultPrevented;
};

describe.each(['ModalForm', 'DrawerForm'] as const)('a %s with changes', (layout) => {
  it('asks before Esc discards what was typed, and the page warns before it is left', async () => {
    mount(layout);
    await openCreate();
    expect(leaving()).toBe(false);
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: 'gamma' } });
    expect(leaving()).toBe(true);
    pressEscape();
    fireEvent.click(await screen.findByTestId('unsaved-keep'));
    await waitFor(() => expect(screen.queryByTestId('unsaved-keep')).toBeNull());
    expect(formOpen()).toBe(true);
    expect(screen.getByTestId('form-name')).toHaveValue('gamma');
    pressEscape();
    fireEvent.click(await screen.findByTestId('unsaved-discard'));
    await waitFor(() => expect(formOpen()).toBe(false));
    expect(leaving()).toBe(false);
  });

  it('closes an untouched form at once, and a saved one without asking', async () => {
    const api = mount(layout);
    await openCreate();
    pressEscape();
    await waitFor(() => expect(formOpen()).toBe(false));
    expect(screen.queryByTestId('unsaved-discard')).toBeNull();
    await openCreate();
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: 'gamma' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('POST', '/api/things')).toHaveLength(1));
    await waitFor(() => expect(formOpen()).toBe(false));
    expect(screen.queryByTestId('unsaved-discard')).toBeNull();
  });
});
