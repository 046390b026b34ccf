import { Provider as ModelProvider } from '@@/plugin-model';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import SettingsScreen from '@/pages/system/settings';
import type { Setting } from '@/pages/system/settings/service';
import { getRootState } from '@/utils/store';
import { fakeApi } from './fake-api';
import { freshStore, grant, renderApp, type TestStore } from './harness';

const setting = (
  key: string,
  category: Setting['category'],
  valueType: Setting['valueType'],
  value: unknown,
  extra: Partial<Setting> = {},
): Setting => ({
  id: key,
  key,
  category,
  name: key,
  nameEn: null,
  description: null,
  valueType,
  value,
  defaultValue: value,
  hasValue: true,
  options: null,
  min: null,
  max: null,
  isPublic: false,
  isSystem: true,
  tenantOverridable: true,
  overridden: false,
  editable: true,
  version: 0,
  updatedAt: null,
  ...extra,
});
const settings = [
  setting('security.password.minLength', 'security', 'number', 8, { min: 6, max: 64, name: '密码最小长度' }),
  setting('login.captchaSecret', 'login', 'secret', null),
  setting('branding.name', 'branding', 'string', '医学教育', { isPublic: true, overridden: true, version: 2 }),
];

vi.setConfig({ testTimeout: 60_000 });
let store: TestStore;
beforeEach(() => {
  store = freshStore();
});
afterEach(() => vi.unstubAllGlobals());

const setInitialState = vi.fn();
const initialStateModel = () => ({
  initialState: { currentUser: { tenant: { code: 'demo' } } },
  setInitialState,
  loading: false,
});
const screenWithModel = () => (
  <ModelProvider models={{ '@@initialState': initialStateModel }}>
    <SettingsScreen />
  </ModelProvider>
);

const api = () =>
  fakeApi({
    'GET /api/system/settings': () => ({ body: { data: settings, total: settings.length, success: true } }),
    'PUT /api/system/settings/.+': (call) => {
      const key = decodeURIComponent(call.path.split('/').pop()!);
      const old = settings.find((s) => s.key === key)!;
      return {
        body: { ...old, value: (call.body as { value: unknown }).value, overridden: true, version: old.version + 1 },
      };
    },
    'DELETE /api/system/settings/.+/override': () => ({
      body: { ...settings[2], value: '平台名称', overridden: false, version: 0 },
    }),
    'GET /api/system/settings/public': () => ({ body: { 'branding.name': '新名称' } }),
  });

describe('/system/settings', () => {
  it('bounds a number by its range and saves it with its version', async () => {
    const calls = api();
    render(
      renderApp({
        store,
        access: grant(['system:settings:list', 'system:settings:update']),
        children: screenWithModel(),
      }).tree,
    );
    const input = await screen.findByTestId('setting-input-security.password.minLength');
    expect(input).toHaveAttribute('aria-valuemin', '6');
    expect(input).toHaveAttribute('aria-valuemax', '64');
    // one way to save: the category's button; each setting says in words what it is, never its key
    expect(screen.queryByTestId('setting-save-security.password.minLength')).toBeNull();
    expect(screen.getByTestId('settings-save-category')).toBeDisabled();
    const card = screen.getByTestId('setting-security.password.minLength');
    expect(within(card).getByText('新设置或修改的密码至少要有这么多位。')).toBeInTheDocument();
    expect(card.textContent).not.toContain('security.password.minLength');
    fireEvent.change(input, { target: { value: '10' } });
    fireEvent.click(screen.getByTestId('settings-save-category'));
    await waitFor(() => expect(calls.find('PUT', '/api/system/settings/security.password.minLength')).toHaveLength(1));
    expect(calls.find('PUT', '/api/system/settings/security.password.minLength')[0].body).toEqual({
      value: 10,
      version: 0,
    });
  });

  it("shows the server's objection under the setting it is about, not as a message", async () => {
    const calls = fakeApi({
      'GET /api/system/settings': () => ({ body: { data: settings, total: settings.length, success: true } }),
      'PUT /api/system/settings/.+': () => ({
        status: 400,
        body: {
          family: 'CLIENT_ERROR',
          code: 'common.validation',
          message: '请求参数有误',
          fields: [{ field: 'value', message: '不能大于 32' }],
        },
      }),
    });
    render(
      renderApp({
        store,
        access: grant(['system:settings:list', 'system:settings:update']),
        children: screenWithModel(),
      }).tree,
    );
    const input = await screen.findByTestId('setting-input-security.password.minLength');
    fireEvent.change(input, { target: { value: '40' } });
    fireEvent.click(screen.getByTestId('settings-save-category'));
    await waitFor(() => expect(calls.find('PUT', '/api/system/settings/security.password.minLength')).toHaveLength(1));
    const card = screen.getByTestId('setting-security.password.minLength');
    expect(await within(card).findByText('不能大于 32')).toBeInTheDocument();
    expect(screen.queryByText('请求参数有误')).toBeNull();
  });

  it('changes a masked secret only through "change"', async () => {
    const calls = api();
    render(
      renderApp({
        store,
        access: grant(['system:settings:list', 'system:settings:update']),
        children: screenWithModel(),
      }).tree,
    );
    fireEvent.click(await screen.findByTestId('settings-tab-login'));
    expect(await screen.findByTestId('setting-mask-login.captchaSecret')).toHaveTextContent('未设置');
    fireEvent.click(screen.getByTestId('setting-change-login.captchaSecret'));
    fireEvent.change(await screen.findByTestId('setting-input-login.captchaSecret'), { target: { value: 'k-123' } });
    const loginForm = screen.getByTestId('setting-login.captchaSecret').closest('form') as HTMLElement;
    fireEvent.click(within(loginForm).getByTestId('settings-save-category'));
    await waitFor(() => expect(calls.find('PUT', '/api/system/settings/login.captchaSecret')).toHaveLength(1));
    expect(calls.find('PUT', '/api/system/settings/login.captchaSecret')[0].body).toEqual({
      value: 'k-123',
      version: 0,
    });
  });

  it('resets an overridden value to the platform default and reloads the public settings', async () => {
    const calls = api();
    render(
      renderApp({
        store,
        access: grant(['system:settings:list', 'system:settings:update']),
        children: screenWithModel(),
      }).tree,
    );
    fireEvent.click(await screen.findByTestId('settings-tab-branding'));
    const card = await screen.findByTestId('setting-branding.name');
    expect(within(card).getByText('本租户已自定义')).toBeInTheDocument();
    fireEvent.click(within(card).getByTestId('setting-reset-branding.name'));
    fireEvent.click(await screen.findByTestId('reset-ok'));
    await waitFor(() => expect(calls.find('DELETE', '/api/system/settings/branding.name/override')).toHaveLength(1));
    await waitFor(() => expect(getRootState().appSettings).toEqual({ 'branding.name': '新名称' }));
    expect(calls.find('GET', '/api/system/settings/public')[0].query).toEqual({ tenant: 'demo' });
    expect(setInitialState).toHaveBeenCalled();
    await waitFor(() => expect(screen.getByTestId('setting-input-branding.name')).toHaveValue('平台名称'));
  });

  it('without the update code everything is read-only', async () => {
    api();
    render(renderApp({ store, access: grant(['system:settings:list']), children: screenWithModel() }).tree);
    expect(await screen.findByTestId('setting-input-security.password.minLength')).toBeDisabled();
    expect(screen.queryByTestId('settings-save-category')).toBeNull();
  });
});
