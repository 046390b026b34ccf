import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
let browser: Browser;
let page: Page;
keepFailures('tenant-journey', () => page);
const problems: string[] = [];
const stamp = Date.now().toString(36);
const tenantCode = `e2e-${stamp}`;
const packageName = `E2E 套餐 ${stamp}`;

beforeAll(async () => {
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
});
afterAll(async () => {
  await browser?.close();
});

async function signIn(tenant: string, username: string, password: string) {
  await page.goto(`${baseURL}/#/login`);
  await page.getByTestId('login-tenant').fill(tenant);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(password);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('workspace').waitFor();
}

/** A first sign-in with an initial password: the password change comes before anything else. */
async function signInFirstTime(tenant: string, username: string, initial: string, own: string) {
  await page.goto(`${baseURL}/#/login`);
  await page.getByTestId('login-tenant').fill(tenant);
  await page.getByTestId('login-username').fill(username);
  await page.getByTestId('login-password').fill(initial);
  await page.getByTestId('login-submit').click();
  await page.getByTestId('first-use-password').waitFor();
  // the sign-in screen sends the user on once the session has started: let it, before going elsewhere
  await page.waitForURL((url) => !url.hash.startsWith('#/login'));
  expect(await menu().count()).toBe(0);
  await page.goto(`${baseURL}/#/system/role`);
  await page.getByTestId('first-use-password').waitFor();
  expect(await page.getByTestId('system-role').count()).toBe(0);
  // the screen's lazily loaded parts (the strength meter's estimator, the area's catalogue) settle first
  await page.waitForLoadState('networkidle');
  const changePassword = async () => {
    await page.getByTestId('current-password').fill(initial);
    await page.getByTestId('new-password').fill(own);
    await page.getByTestId('confirm-password').fill(own);
    await page.getByTestId('change-password-submit').click();
    return page
      .getByTestId('first-use-password')
      .waitFor({ state: 'detached', timeout: 15_000 })
      .then(() => true)
      .catch(() => false);
  };
  if (!(await changePassword())) {
    // seen once in CI, right after sign-in: a filled field was empty when the form was sent (not reproduced since).
    // Say what the screen showed, then try as a user would, once more
    const shown = await page.getByTestId('first-use-password').innerText();
    console.warn(`e2e: the first password change did not complete; the screen showed:\n${shown}`);
    expect(await changePassword()).toBe(true);
  }
  await page.goto(`${baseURL}/#/dashboard/workspace`);
  await page.getByTestId('workspace').waitFor();
}

async function signOut() {
  await page.getByTestId('user-menu').hover();
  await page.getByTestId('logout').click();
  await page.waitForURL(/#\/login/);
}

const menu = () => page.locator('.ant-pro-sider .ant-menu, .ant-pro-layout .ant-menu').first();
const node = (code: string) => page.locator(`[data-testid="permission-node"][data-code="${code}"]`);
const isChecked = async (code: string) =>
  ((await page.locator('.ant-tree-treenode', { has: node(code) }).getAttribute('class')) ?? '').includes(
    'ant-tree-treenode-checkbox-checked',
  );
/** Clicks a node of the permission tree until it is (un)checked as wanted: a click during a re-render may be lost. */
async function setNode(code: string, checked: boolean) {
  for (let attempt = 0; attempt < 3 && (await isChecked(code)) !== checked; attempt++) {
    await node(code).click();
    await expect
      .poll(() => isChecked(code), { timeout: 3_000 })
      .toBe(checked)
      .catch(() => undefined);
  }
  expect(await isChecked(code)).toBe(checked);
}
const pick = async (select: string, option: string) => {
  await page.getByTestId(select).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).click();
};

// one journey: each step works on what the previous one made
describe('A tenant from provisioning to a restricted account, in Chromium', () => {
  // every account here starts with a password someone else chose, and is made to change it at first sign-in
  it('the platform operator creates a package with a subset of the permissions', async () => {
    await signIn('platform', 'admin', 'admin123');
    await menu().getByText('系统管理').click();
    await menu().getByText('租户管理').click();
    await page.getByTestId('system-tenant').waitFor();
    await page.getByRole('tab', { name: '租户套餐' }).click();
    const packages = page.locator('[data-resource="system/tenant-package"]');
    await packages.getByTestId('table-create').click();
    await page.getByTestId('form-name').fill(packageName);
    await node('dashboard:workspace:view').click();
    await node('account:profile:view').click();
    await node('system:role:list').click();
    await node('system:admin:list').click();
    await expect.poll(() => page.getByTestId('permission-tree').innerText()).toMatch(/已选 2\d 项/);
    expect(await page.locator('[data-testid="permission-node"][data-code="system:tenant:list"]').count()).toBe(0);
    await page.getByTestId('resource-form-submit').click();
    await packages.locator('tr', { hasText: packageName }).waitFor();
  });

  it('creates a tenant with that package and its first administrator', async () => {
    await page.getByRole('tab', { name: '租户', exact: true }).click();
    const tenants = page.locator('[data-resource="system/tenant"]');
    await tenants.getByTestId('table-create').click();
    await page.getByTestId('form-code').fill(tenantCode);
    await page.getByTestId('form-name').fill(`端到端医院 ${stamp}`);
    await pick('form-packageId', packageName);
    await page.getByTestId('form-maxAccounts').fill('10');
    await page.getByTestId('form-contactName').fill('王主任');
    await page.getByTestId('form-adminUserName').fill('boss');
    await page.getByTestId('form-adminDisplayName').fill('院管理员');
    await page.getByTestId('form-adminPassword').fill('short');
    await page.getByTestId('resource-form-submit').click();
    // the server's objection marks the initial-password field, names the password it is about, and pops up nothing
    const passwordItem = page.locator('.ant-form-item', { has: page.getByTestId('form-adminPassword') });
    await passwordItem.locator('.ant-form-item-explain-error', { hasText: '密码至少 8 位' }).waitFor();
    expect(await passwordItem.innerText()).not.toContain('新密码');
    expect(await page.locator('.ant-message').getByText('密码至少 8 位').count()).toBe(0);
    await page.getByTestId('form-adminPassword').fill('Amber-Falcon-81');
    await page.getByTestId('resource-form-submit').click();
    const row = tenants.locator('tr', { hasText: tenantCode });
    await row.waitFor();
    await expect.poll(() => row.innerText()).toContain(packageName);
    await expect.poll(() => row.innerText()).toContain('1 / 10');
    await signOut();
  });

  it('the new administrator creates a role holding only the workspace and the account list', async () => {
    await signInFirstTime(tenantCode, 'boss', 'Amber-Falcon-81', 'Quiet-Heron-Lantern-2026');
    await menu().getByText('系统管理').click();
    await expect.poll(() => menu().innerText()).toContain('角色管理');
    expect(await menu().getByText('租户管理').count()).toBe(0);
    await menu().getByText('角色管理').click();
    await page.getByTestId('system-role').waitFor();
    await page.getByTestId('table-create').click();
    await page.getByTestId('form-code').fill('clerk');
    await page.getByTestId('form-name').fill('办事员');
    await page.getByTestId('resource-form-submit').click();
    const row = page.locator('[data-testid="system-role"] tr', { hasText: 'clerk' });
    await row.waitFor();

    await row.getByTestId('row-permissions').click();
    await page.getByTestId('role-permissions').waitFor();
    await node('dashboard:workspace:view').click();
    await node('system:admin:list').click();
    await page
      .locator('.ant-tree-treenode', { has: node('system:admin:list') })
      .locator('.ant-tree-switcher')
      .click();
    await setNode('system:admin:create', false);
    await setNode('system:admin:import', false);
    await page.getByTestId('role-permissions-save').click();
    await page.getByTestId('role-permissions').waitFor({ state: 'detached' });
  });

  it('creates an account and gives it the role', async () => {
    await page.goto(`${baseURL}/#/system/admin`);
    const screen = page.getByTestId('system-admin');
    await screen.waitFor();
    await screen.getByTestId('table-create').click();
    await page.getByTestId('form-userName').fill('clerk1');
    await page.getByTestId('form-displayName').fill('办事员一');
    await page.getByTestId('form-password').fill('Amber-Falcon-81');
    await page.getByTestId('resource-form-submit').click();
    const row = page.locator('[data-testid="system-admin"] tr', { hasText: 'clerk1' });
    await row.waitFor();
    await row.getByTestId('row-more').click();
    await page.getByTestId('row-action-assign-role').click();
    await pick('roles-select', '办事员 (clerk)');
    await page.locator('.ant-modal-title', { hasText: '分配角色' }).click();
    await page.getByTestId('roles-submit').click();
    await expect.poll(() => row.innerText()).toContain('办事员');
    await signOut();
  });

  it('the account sees only what the role allows', async () => {
    await signInFirstTime(tenantCode, 'clerk1', 'Amber-Falcon-81', 'Amber-Otter-Meadow-2026');
    await expect.poll(() => menu().innerText()).toContain('工作台');
    await expect.poll(() => menu().getByText('个人中心').count()).toBe(0);
    await menu().getByText('系统管理').click();
    await expect.poll(() => menu().innerText()).toContain('管理员');
    expect(await menu().getByText('角色管理').count()).toBe(0);
    expect(await menu().getByText('租户管理').count()).toBe(0);

    await menu().getByText('管理员', { exact: true }).click();
    await page.getByTestId('system-admin').waitFor();
    await page.locator('[data-testid="system-admin"] tr', { hasText: 'clerk1' }).waitFor();
    const screen = page.getByTestId('system-admin');
    await expect.poll(() => screen.getByTestId('table-export').count()).toBe(1);
    expect(await screen.getByTestId('table-create').count()).toBe(0);
    expect(await screen.getByTestId('table-import').count()).toBe(0);

    await page.goto(`${baseURL}/#/system/role`);
    await page.getByTestId('exception-403').waitFor();
    expect(await page.getByTestId('system-role').count()).toBe(0);
  });

  it('ran without a page error', () => {
    expect(problems).toEqual([]);
  });
});
