import type { PermissionPrefix } from '@server/db/seed/permissions';
import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import ResourceTable from '@/components/resource/ResourceTable';
import type { ResourceDescriptor } from '@/components/resource/types';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp } from './harness';

interface Thing {
  id: string;
  version: number;
  name: string;
  status: string;
}

const descriptor: ResourceDescriptor<Thing, never, never> = {
  resource: 'things',
  auditType: 'thing',
  // a throwaway entity: its codes are in no manifest
  permission: 'demo:thing' as PermissionPrefix,
  titleId: 'system.admin.entity',
  form: { create: ['name', 'status'], update: ['name', 'status'] },
  columns: [
    { dataIndex: 'name', titleId: 'system.admin.userName', formItemProps: { rules: [{ required: true }] } },
    {
      dataIndex: 'status',
      titleId: 'system.admin.status',
      options: [{ value: 'enabled', labelId: 'resource.ok' }],
      formItemProps: { rules: [{ required: true }] },
    },
  ],
};

vi.setConfig({ testTimeout: 60_000 });

describe('a required field', () => {
  it('says to type a text and to pick a choice (请输入 / 请选择)', async () => {
    const api = fakeApi({ 'GET /api/things': () => ({ body: { data: [], total: 0, success: true } }) });
    const { tree } = renderApp({
      store: freshStore([]),
      access: grant(['list', 'create'].map((a) => `demo:thing:${a}`)),
      children: <ResourceTable<Thing> descriptor={descriptor} />,
    });
    render(tree);
    fireEvent.click(await screen.findByTestId('table-create'));
    fireEvent.click(await screen.findByTestId('resource-form-submit', {}, { timeout: 10_000 }));
    expect(await screen.findByText('请选择状态', {}, { timeout: 10_000 })).toBeTruthy();
    expect(screen.getByText('请输入用户名')).toBeTruthy();
    expect(api.find('POST', '/api/things')).toHaveLength(0);
  });
});
