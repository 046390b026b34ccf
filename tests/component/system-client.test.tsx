import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import ClientScreen from '@/pages/system/client';
import type { OauthClient } from '@/pages/system/client/descriptor';
import ClientProfile from '@/pages/system/client/profile';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp, seededSysCodes, type TestStore } from './harness';

const client: OauthClient = {
  id: '4',
  clientId: 'his',
  name: 'HIS',
  description: null,
  clientType: 'confidential',
  grantTypes: ['client_credentials'],
  redirectUris: [],
  scopes: ['read'],
  accessTokenTtlSec: 1800,
  refreshTokenTtlSec: 2592000,
  allowedTenantIds: null,
  status: 'enabled',
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: null,
  version: 0,
};
const all = [
  'system:client:list',
  'system:client:create',
  'system:client:update',
  'system:client:rotate-secret',
  'system:client:revoke-tokens',
];

vi.setConfig({ testTimeout: 60_000 });
let store: TestStore;
beforeEach(() => {
  store = freshStore(seededSysCodes('common_status', 'client_type', 'grant_type'));
});
afterEach(() => vi.unstubAllGlobals());

const api = () =>
  fakeApi({
    'GET /api/system/client': () => ({ body: { data: [client], total: 1, success: true, current: 1, pageSize: 10 } }),
    'GET /api/system/client/4': () => ({ body: client }),
    'POST /api/system/client': (call) => ({
      status: 201,
      body: { ...client, ...(call.body as object), id: '6', clientSecret: 'S3cr3t-once' },
    }),
    'POST /api/system/client/4/rotate-secret': () => ({ body: { clientSecret: 'Rotated-once' } }),
    'GET /api/system/audit-log': () => ({
      body: {
        data: [
          {
            id: '1',
            actorId: '1',
            actorName: 'admin',
            action: 'system:client:rotate-secret',
            resourceType: 'oauth_client',
            resourceId: '4',
            summary: 'his',
            before: null,
            after: null,
            ip: null,
            userAgent: null,
            createdAt: '2026-01-02T00:00:00.000Z',
          },
        ],
        total: 1,
        success: true,
      },
    }),
  });

describe('/system/client', () => {
  it('creates a client with its grant types, scopes and lifetimes, then shows the secret once', async () => {
    const calls = api();
    render(renderApp({ store, access: grant(all), children: <ClientScreen /> }).tree);
    const row = (await screen.findByText('his')).closest('tr') as HTMLElement;
    expect(within(row).getByText('客户端凭证')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('table-create'));
    fireEvent.change(await screen.findByTestId('form-clientId'), { target: { value: 'mini-app' } });
    fireEvent.change(screen.getByTestId('form-name'), { target: { value: '小程序' } });
    fireEvent.click(screen.getByTestId('resource-form-submit'));
    await waitFor(() => expect(calls.find('POST', '/api/system/client')).toHaveLength(1));
    expect(calls.find('POST', '/api/system/client')[0].body).toMatchObject({
      clientId: 'mini-app',
      name: '小程序',
      clientType: 'confidential',
      grantTypes: ['authorization_code', 'refresh_token'],
      accessTokenTtlSec: 1800,
      refreshTokenTtlSec: 2592000,
      status: 'enabled',
    });
    expect(await screen.findByTestId('client-secret')).toHaveTextContent('S3cr3t-once');
  });

  it('rotates the secret after a confirmation', async () => {
    const calls = api();
    render(renderApp({ store, access: grant(all), children: <ClientScreen /> }).tree);
    const row = (await screen.findByText('his')).closest('tr') as HTMLElement;
    fireEvent.click(within(row).getByTestId('row-rotate-secret'));
    await screen.findByText(/为 his 生成新密钥/);
    expect(calls.find('POST', '/api/system/client/4/rotate-secret')).toHaveLength(0);
    fireEvent.click(screen.getByTestId('confirm-ok'));
    expect(await screen.findByTestId('client-secret')).toHaveTextContent('Rotated-once');
  });

  it('the profile shows the details and the audit trail', async () => {
    const calls = api();
    const routes = [{ path: '/system/client/:id/profile', element: <ClientProfile /> }];
    render(
      renderApp({ store, access: grant(['system:client:list']), routes, initialPath: '/system/client/4/profile' }).tree,
    );
    expect(await screen.findByText('HIS')).toBeInTheDocument();
    const audit = screen.getByTestId('audit-timeline');
    await waitFor(() => expect(within(audit).getByText('重置密钥')).toBeInTheDocument());
    expect(calls.find('GET', '/api/system/audit-log')[0].query).toMatchObject({
      resourceType: 'oauth_client',
      resourceId: '4',
    });
    expect(screen.queryByTestId('row-rotate-secret')).toBeNull();
  });
});
