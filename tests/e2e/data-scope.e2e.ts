import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { launchChromium } from './browser';
import { keepFailures } from './failures';

const baseURL = inject('baseURL');
let browser: Browser;
let page: Page;
keepFailures('data-scope', () => page);
const problems: string[] = [];
/** Names of this run (the server is shared by the journeys of one run). */
const tag = Date.now().toString(36).slice(-4);
let token = '';

/** The API as demo's administrator: what the journey needs set up before it starts. */
async function api(method: string, path: string, body?: unknown) {
  const res = await fetch(`${baseURL}/api${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(answer)}`);
  return answer;
}

interface Node {
  id: string;
  code: string | null;
  children?: Node[];
}
const flat = (nodes: Node[]): Node[] => nodes.flatMap((n) => [n, ...flat(n.children ?? [])]);

const username = `dept${tag}`;
const password = `Ward-${tag}-rounds-2026`;
const ids: Record<string, string> = {};

beforeAll(async () => {
  const signIn = await fetch(`${baseURL}/api/auth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      grant_type: 'password',
      tenant: 'demo',
      username: 'admin',
      password: 'admin123',
      client_id: 'console',
    }),
  });
  token = (await signIn.json()).access_token;
  const hospital = await api('POST', '/people/organization', {
    code: `SH${tag}`,
    name: `范围医院${tag}`,
    orgType: 'hospital',
  });
  const [cardiology, surgery] = await Promise.all(
    [
      [`SC${tag}`, `心内科${tag}`],
      [`SS${tag}`, `普外科${tag}`],
    ].map(([code, name]) =>
      api('POST', '/people/organization', { code, name, orgType: 'department', parentId: hospital.id }),
    ),
  );
  const type = await api('POST', '/people/doctor-type', { code: `dt${tag}`, name: `带教医生${tag}` });
  ids.doctorType = type.id;
  // one staff member and one doctor in each department: only the first department's are the scoped user's to see
  const people = [
    ['staff', cardiology.id, '心内职工'],
    ['staff', surgery.id, '外科职工'],
    ['doctor', cardiology.id, '心内医生'],
    ['doctor', surgery.id, '外科医生'],
  ] as const;
  for (const [i, [kind, orgId, name]] of people.entries()) {
    const made = await api('POST', `/people/${kind}`, {
      name: `${name}${tag}`,
      orgId,
      ...(kind === 'staff' ? { staffNo: `S${tag}${i}` } : { doctorTypeId: type.id }),
    });
    ids[`${kind}:${name}`] = made.id;
  }
  // a role that sees its holder's own department, with the people screens' list permissions
  const role = await api('POST', '/system/role', { code: `dept_${tag}`, name: `科室秘书${tag}` });
  const { tree } = await api('GET', `/system/role/${role.id}/permissions`);
  const wanted = ['people:staff:list', 'people:doctor-type:list', 'people:doctor:list', 'trainee:trainee:list'];
  const permissionIds = flat(tree)
    .filter((n) => n.code && wanted.includes(n.code))
    .map((n) => n.id);
  expect(permissionIds).toHaveLength(wanted.length);
  await api('PUT', `/system/role/${role.id}/permissions`, { permissionIds });
  await api('PUT', `/system/role/${role.id}/data-scope`, { dataScope: 'org' });
  await api('POST', '/system/admin', {
    userName: username,
    displayName: `科室秘书${tag}`,
    password,
    mustChangePassword: false,
    orgId: cardiology.id,
    roleIds: [role.id],
  });
  browser = await launchChromium();
  const context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
  page = await context.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
});
afterAll(() => browser?.close());

describe('A department-scoped role in Chromium', () => {
  it('signs in as the holder of a role scoped to their own department', async () => {
    await page.goto(`${baseURL}/#/login`);
    await page.getByTestId('login-tenant').fill('demo');
    await page.getByTestId('login-username').fill(username);
    await page.getByTestId('login-password').fill(password);
    await page.getByTestId('login-submit').click();
    await page.waitForURL(/#\/(?!login)/);
  });

  it("sees only their department's staff, and another department's staff member is not found", async () => {
    await page.goto(`${baseURL}/#/user/staff`);
    const list = page.getByTestId('people-staff');
    await list.locator('tr', { hasText: `心内职工${tag}` }).waitFor();
    expect(await list.locator('tr', { hasText: `外科职工${tag}` }).count()).toBe(0);
    await page.goto(`${baseURL}/#/user/staff/${ids['staff:外科职工']}/profile`);
    await page.getByTestId('record-not-found').waitFor();
  });

  it("sees only their department's doctors of a type", async () => {
    await page.goto(`${baseURL}/#/user/doctor-type/${ids.doctorType}/detail`);
    await page.locator('tr', { hasText: `心内医生${tag}` }).waitFor();
    expect(await page.locator('tr', { hasText: `外科医生${tag}` }).count()).toBe(0);
    await page.goto(`${baseURL}/#/doctor/${ids['doctor:外科医生']}/profile`);
    await page.getByTestId('record-not-found').waitFor();
    expect(problems).toEqual([]);
  });
});
