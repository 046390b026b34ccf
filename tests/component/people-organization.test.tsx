import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import OrganizationPage from '@/pages/people/organization';
import OrganizationPicker from '@/pages/people/organization/OrganizationPicker';
import OrganizationProfile from '@/pages/people/organization/profile';
import {
  CreateOrganization,
  MoveOrganization,
} from '../../server/src/modules/people/organization/organization.resource';
import { fakeApi, page, validatedBy } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

vi.setConfig({ testTimeout: 60_000 });

const node = (
  id: string,
  code: string,
  name: string,
  orgType: string,
  parentId: string | null,
  hasChildren: boolean,
) => ({
  id,
  code,
  name,
  shortName: null,
  orgType,
  parentId,
  path: parentId ? `/${parentId}/${id}/` : `/${id}/`,
  depth: parentId ? 1 : 0,
  baseLevel: null,
  specialtyCode: null,
  standardDeptCode: null,
  phone: null,
  email: null,
  districtCode: null,
  address: null,
  annualCapacity: null,
  accreditationNo: null,
  sort: 0,
  status: 'enabled',
  remark: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 0,
  hasChildren,
});
const hospital = node('1', 'H1', '第一医院', 'hospital', null, true);
const other = node('2', 'H2', '第二医院', 'hospital', null, false);
const dept = node('3', 'D1', '心内科', 'department', '1', false);
const codes = ['list', 'create', 'update', 'delete', 'export', 'import', 'move'].map((a) => `people:organization:${a}`);

let store: TestStore;
beforeEach(() => {
  store = freshStore([
    { type: 'common_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
    { type: 'common_status', value: 'disabled', label: '停用', labelEn: 'Disabled', color: 'default', sort: 1 },
  ]);
});
afterEach(() => vi.unstubAllGlobals());

const tree = () => ({
  'GET /api/people/organization/tree': (call: { query: Record<string, string> }) => ({
    body: call.query.parentId === '1' ? [dept] : call.query.parentId ? [] : [hospital, other],
  }),
});

describe('/user/organization', () => {
  it('shows the tree by type, loads a node’s children on expand and creates a department under a hospital', async () => {
    const api = fakeApi({
      ...tree(),
      'POST /api/people/organization': validatedBy(CreateOrganization, (call) => ({
        status: 201,
        body: { ...dept, id: '4', ...(call.body as object) },
      })),
    });
    render(renderApp({ store, access: grant(codes), children: <OrganizationPage /> }).tree);
    const row = (await screen.findByText('第一医院')).closest('tr') as HTMLElement;
    expect(within(row).getByText('医院')).toHaveClass('ant-tag');
    fireEvent.click(row.querySelector('.ant-table-row-expand-icon') as HTMLElement);
    await screen.findByText('心内科');
    expect(api.find('GET', '/api/people/organization/tree').map((c) => c.query.parentId)).toContain('1');

    fireEvent.click(within(row).getByTestId('row-add-child'));
    await screen.findByText('新建组织', {}, { timeout: 10_000 });
    fireEvent.change(screen.getByTestId('form-code'), { target: { value: 'D2' } });
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: '儿科' } });
    const type = screen.getByTestId('form-orgType').closest('.ant-select') as HTMLElement;
    fireEvent.mouseDown(type.querySelector('.ant-select-selector') as HTMLElement);
    fireEvent.click(await screen.findByTitle('科室'));
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(api.find('POST', '/api/people/organization')).toHaveLength(1));
    expect(api.find('POST', '/api/people/organization')[0].body).toEqual({
      parentId: '1',
      code: 'D2',
      name: '儿科',
      orgType: 'department',
      sort: 0,
      status: 'enabled',
    });
  });

  it('shows the server’s refusal of a type on the type field', async () => {
    fakeApi({
      ...tree(),
      'POST /api/people/organization': () => ({
        status: 400,
        body: {
          family: 'CLIENT_ERROR',
          code: 'common.validation',
          message: '请求参数不正确',
          fields: [{ field: 'orgType', message: '医院不能放在医院下（只能放在顶层下）' }],
        },
      }),
    });
    render(renderApp({ store, access: grant(codes), children: <OrganizationPage /> }).tree);
    const row = (await screen.findByText('第一医院')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-add-child'));
    await screen.findByText('新建组织', {}, { timeout: 10_000 });
    fireEvent.change(screen.getByTestId('form-code'), { target: { value: 'H9' } });
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: '分院' } });
    const type = screen.getByTestId('form-orgType').closest('.ant-select') as HTMLElement;
    fireEvent.mouseDown(type.querySelector('.ant-select-selector') as HTMLElement);
    fireEvent.click(await screen.findByTitle('医院'));
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    expect(await screen.findByText('医院不能放在医院下（只能放在顶层下）')).toBeInTheDocument();
  });

  it('moves a node under another parent picked from the tree and reloads the tree', async () => {
    const api = fakeApi({
      ...tree(),
      'POST /api/people/organization/3/move': validatedBy(MoveOrganization, (call) => ({
        body: { ...dept, ...(call.body as object), version: 1 },
      })),
    });
    render(renderApp({ store, access: grant(codes), children: <OrganizationPage /> }).tree);
    const row = (await screen.findByText('第一医院')).closest('tr') as HTMLElement;
    fireEvent.click(row.querySelector('.ant-table-row-expand-icon') as HTMLElement);
    const child = (await screen.findByText('心内科')).closest('tr') as HTMLElement;
    fireEvent.click(within(child).getByTestId('row-move'));
    await screen.findByText('移动「心内科」');
    const picker = screen.getByTestId('move-target').closest('.ant-select') as HTMLElement;
    fireEvent.mouseDown(picker.querySelector('.ant-select-selector') as HTMLElement);
    fireEvent.click(await screen.findByTitle('第二医院 (H2)'));
    const roots = api.find('GET', '/api/people/organization/tree').filter((c) => !c.query.parentId).length;
    fireEvent.click(screen.getByTestId('move-submit'));
    await waitFor(() => expect(api.find('POST', '/api/people/organization/3/move')).toHaveLength(1));
    expect(api.find('POST', '/api/people/organization/3/move')[0].body).toEqual({ parentId: '2', version: 0 });
    await waitFor(() =>
      expect(api.find('GET', '/api/people/organization/tree').filter((c) => !c.query.parentId).length).toBe(roots + 1),
    );
  });

  it('moves a node dropped onto another row under it, after a confirmation', async () => {
    const api = fakeApi({
      ...tree(),
      'POST /api/people/organization/3/move': validatedBy(MoveOrganization, (call) => ({
        body: { ...dept, ...(call.body as object), version: 1 },
      })),
    });
    render(renderApp({ store, access: grant(codes), children: <OrganizationPage /> }).tree);
    const row = (await screen.findByText('第一医院')).closest('tr') as HTMLElement;
    fireEvent.click(row.querySelector('.ant-table-row-expand-icon') as HTMLElement);
    const child = (await screen.findByText('心内科')).closest('tr') as HTMLElement;
    const onto = screen.getByText('第二医院').closest('tr') as HTMLElement;
    expect(child).toHaveAttribute('draggable', 'true');
    fireEvent.dragStart(child);
    fireEvent.dragOver(onto);
    fireEvent.drop(onto);
    await screen.findAllByText('把「心内科」移到「第二医院」下？');
    expect(screen.getAllByTestId('drop-confirm')).toHaveLength(1);
    fireEvent.click(screen.getByTestId('drop-confirm'));
    await waitFor(() => expect(api.find('POST', '/api/people/organization/3/move')).toHaveLength(1));
    expect(api.find('POST', '/api/people/organization/3/move')[0].body).toEqual({ parentId: '2', version: 0 });
  });

  it('disables a node with its version', async () => {
    const api = fakeApi({
      ...tree(),
      'PUT /api/people/organization/2': (call) => ({ body: { ...other, ...(call.body as object), version: 1 } }),
    });
    render(renderApp({ store, access: grant(codes), children: <OrganizationPage /> }).tree);
    const row = (await screen.findByText('第二医院')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-disable'));
    // the confirmation's OK button (a role query over the whole table is slow)
    await waitFor(() => expect(document.querySelector('.ant-popconfirm .ant-btn-primary')).not.toBeNull());
    fireEvent.click(document.querySelector('.ant-popconfirm .ant-btn-primary') as HTMLElement);
    await waitFor(() => expect(api.find('PUT', '/api/people/organization/2')).toHaveLength(1));
    expect(api.find('PUT', '/api/people/organization/2')[0].body).toEqual({ status: 'disabled', version: 0 });
  });

  it('offers no writes to a user who may only look', async () => {
    fakeApi(tree());
    render(renderApp({ store, access: grant(['people:organization:list']), children: <OrganizationPage /> }).tree);
    const row = (await screen.findByText('第一医院')).closest('tr') as HTMLElement;
    expect(within(row).getByTestId('row-profile')).toBeInTheDocument();
    for (const id of ['row-add-child', 'row-edit', 'row-delete', 'row-move', 'row-disable'])
      expect(within(row).queryByTestId(id)).toBeNull();
    expect(row).not.toHaveAttribute('draggable');
  });
});

describe('/user/organization/:id/profile', () => {
  it('shows the details, where it sits, the organisations under it and the audit trail', async () => {
    const api = fakeApi({
      ...tree(),
      'GET /api/people/organization/1': () => ({ body: { ...hospital, ancestry: null, phone: '010-12345678' } }),
      'GET /api/system/audit-log': () => ({
        body: {
          data: [
            {
              id: '9',
              actorId: '1',
              actorName: 'admin',
              action: 'people:organization:move',
              resourceType: 'organization',
              resourceId: '1',
              summary: 'H1 第一医院',
              before: { parentId: '5' },
              after: { parentId: null },
              ip: null,
              userAgent: null,
              createdAt: '2026-01-02T00:00:00.000Z',
            },
            {
              id: '10',
              actorId: null,
              actorName: null,
              action: 'people:organization:disable',
              resourceType: 'organization',
              resourceId: '1',
              summary: 'H1 第一医院',
              before: { status: 'enabled' },
              after: { status: 'disabled' },
              ip: null,
              userAgent: null,
              createdAt: '2026-01-03T00:00:00.000Z',
            },
          ],
          total: 2,
          success: true,
          current: 1,
          pageSize: 20,
        },
      }),
    });
    const routes = [{ path: '/user/organization/:id/profile', element: <OrganizationProfile /> }];
    render(renderApp({ store, access: grant(codes), routes, initialPath: '/user/organization/1/profile' }).tree);
    expect(await screen.findByText('010-12345678')).toBeInTheDocument();
    const children = screen.getByTestId('organization-children');
    await waitFor(() => expect(within(children).getByText('心内科')).toBeInTheDocument());
    const audit = screen.getByTestId('audit-timeline');
    await waitFor(() => expect(within(audit).getByText('移动')).toBeInTheDocument());
    // a change with no actor is the system's (a job's, the clock's)
    const disabled = within(audit).getByText('停用').closest('[data-testid="audit-entry"]') as HTMLElement;
    expect(disabled).toHaveTextContent('停用 · 系统 ·');
    expect(api.find('GET', '/api/system/audit-log')[0].query).toMatchObject({
      resourceType: 'organization',
      resourceId: '1',
    });
  });

  it('says a record of another tenant, or a deleted one, does not exist', async () => {
    fakeApi({});
    const routes = [{ path: '/user/organization/:id/profile', element: <OrganizationProfile /> }];
    render(renderApp({ store, access: grant(codes), routes, initialPath: '/user/organization/77/profile' }).tree);
    expect(await screen.findByTestId('record-not-found')).toBeInTheDocument();
  });
});

describe('the organisation picker', () => {
  it('reads nothing for an empty field', async () => {
    const api = fakeApi(tree());
    render(renderApp({ store, children: <OrganizationPicker value={null} data-testid="picker" /> }).tree);
    await waitFor(() => expect(api.find('GET', '/api/people/organization/tree')).toHaveLength(1));
    // a record's empty field (null) is no organisation to look up
    expect(api.calls.filter((c) => c.path !== '/api/people/organization/tree')).toEqual([]);
  });

  it('finds a node at any level by what is typed, without its levels opened first', async () => {
    const base = { ...node('4', 'B4', '内科专业基地', 'specialty_base', '1', true), path: '/1/4/', depth: 1 };
    const deep = { ...node('5', 'D5', '心血管内科', 'department', '4', false), path: '/1/4/5/', depth: 2 };
    const api = fakeApi({
      'GET /api/people/organization/tree': (call: { query: Record<string, string> }) => ({
        body: call.query.parentId === '1' ? [base] : call.query.parentId === '4' ? [deep] : [hospital, other],
      }),
      'GET /api/people/organization': (call: { query: Record<string, string> }) =>
        page(call.query.keyword === '心血管' ? [deep] : []),
    });
    const onChange = vi.fn();
    render(
      renderApp({
        store,
        children: <OrganizationPicker types={['department']} onChange={onChange} data-testid="picker" />,
      }).tree,
    );
    const input = (await screen.findByTestId('picker')).querySelector('input') as HTMLElement;
    fireEvent.mouseDown(input);
    await screen.findByText('第一医院 (H1)', { selector: '.ant-select-tree-title' });
    fireEvent.change(input, { target: { value: '心血管' } });
    const found = await screen.findByText('心血管内科 (D5)', { selector: '.ant-select-tree-title' }, { timeout: 5000 });
    expect(api.find('GET', '/api/people/organization')[0].query.keyword).toBe('心血管');
    // the other hospital, which holds no match, is not offered while searching
    expect(screen.queryByText('第二医院 (H2)', { selector: '.ant-select-tree-title' })).toBeNull();
    fireEvent.click(found);
    expect(onChange).toHaveBeenCalledWith('5', expect.anything(), expect.anything());
  });

  it('offers only the types it is for; the others show disabled, for where they sit', async () => {
    fakeApi(tree());
    render(renderApp({ store, children: <OrganizationPicker types={['department']} data-testid="picker" /> }).tree);
    fireEvent.mouseDown((await screen.findByTestId('picker')).querySelector('input') as HTMLElement);
    const node = async (title: string) =>
      (await screen.findByText(title, { selector: '.ant-select-tree-title' })).closest('.ant-select-tree-treenode');
    expect(await node('第一医院 (H1)')).toHaveClass('ant-select-tree-treenode-disabled');
    fireEvent.click((await node('第一医院 (H1)'))?.querySelector('.ant-select-tree-switcher') as Element);
    expect(await node('心内科 (D1)')).not.toHaveClass('ant-select-tree-treenode-disabled');
  });
});
