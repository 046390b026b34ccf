import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as migration0060 from '../../server/src/db/migrations/0060_report_permission_and_idempotency';
import { seedBase } from '../../server/src/db/seed/base';
import {
  type DirectorySeed,
  flattenManifest,
  type MenuDeclaration,
  type MenuSeed,
  permissionManifest,
} from '../../server/src/db/seed/permissions';
import { resourceMenus } from '../../server/src/modules/registry';
import { engines, startApi, type TestApi } from './helpers';
import { describeOperation, loadOperations } from './openapi-operations';

/** The dictionary's menus as the manifest listed them before their definitions declared them. */
const listedBefore: MenuSeed[] = [
  {
    code: 'dictionary:industry:list',
    name: '行业',
    nameEn: 'Industries',
    path: '/dictionary/industry',
    platformOnly: true,
    buttons: ['import'],
  },
  {
    code: 'dictionary:errcode:list',
    name: '错误码',
    nameEn: 'Error codes',
    path: '/dictionary/errcode',
    platformOnly: true,
    buttons: ['import'],
  },
  {
    code: 'dictionary:busiitem:list',
    name: '业务事项',
    nameEn: 'Business items',
    path: '/dictionary/busiitem',
    buttons: ['bind-template', 'import'],
  },
];
/** The units' menu, declared by its definition at the console's route of the specification. */
const unitMenu: MenuSeed = {
  code: 'people:unit:list',
  name: '单位',
  nameEn: 'Units',
  path: '/units/list',
  buttons: ['merge', 'import'],
};
/** The organisation tree's menu, declared by its definition at the console's route of the specification. */
const organizationMenu: MenuSeed = {
  code: 'people:organization:list',
  name: '组织机构',
  nameEn: 'Organisations',
  path: '/user/organization',
  buttons: ['move', 'import'],
};
/** The trainee types' and their fields' menus, declared by their definitions at the specification's routes. */
const traineeMenus: MenuSeed[] = [
  {
    code: 'people:trainee-type:list',
    name: '学员类型',
    nameEn: 'Trainee types',
    path: '/user/trainee-type',
    buttons: ['clone', 'import'],
  },
  {
    code: 'people:trainee-field:list',
    name: '学员类型字段',
    nameEn: 'Trainee type fields',
    path: '/user/trainee-type-field',
    buttons: ['reorder', 'archive', 'import'],
  },
];
const declaredMenus: Partial<Record<string, MenuSeed[]>> = {
  dictionary: listedBefore,
  org: [unitMenu, organizationMenu],
  people: traineeMenus,
};
const manifestBefore: DirectorySeed[] = permissionManifest.map((dir) => ({
  ...dir,
  menus: [...dir.menus, ...(declaredMenus[dir.key] ?? [])],
}));

describe('the permission seed', () => {
  it('gives the rows the manifest gave while it listed the menus the resources now declare', () => {
    expect(resourceMenus.map((d) => d.permission)).toEqual(
      expect.arrayContaining([
        'dictionary:industry',
        'dictionary:errcode',
        'dictionary:busiitem',
        'people:organization',
        'people:unit',
        'people:trainee-type',
        'people:trainee-field',
      ]),
    );
    expect(flattenManifest(resourceMenus)).toEqual(flattenManifest([], manifestBefore));
  });

  it('refuses two menus at one place, or a gap', () => {
    const at = (order: number): MenuDeclaration => ({
      path: 'dictionary/errcode',
      permission: 'dictionary:errcode',
      menu: { parent: 'dictionary', order },
    });
    expect(() => flattenManifest([...resourceMenus, at(0)])).toThrow(/dictionary has a menu at 0/);
    expect(() => flattenManifest([at(9)])).toThrow(/gap/);
  });
});

describe.each(engines())('seeding a database on $name', (engine) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi(engine);
  });
  afterAll(() => api?.close());

  const rows = async (query: string) => (await sql.raw<Record<string, unknown>>(query).execute(api.db)).rows;
  const permissions = () =>
    rows(`SELECT p.id::text AS id, p.code, p.type, p.locale_key, parent.locale_key AS parent, p.path, p.icon, p.sort,
      p.platform_only, p.status, p.name, p.name_en
      FROM permission p LEFT JOIN permission parent ON parent.id = p.parent_id ORDER BY p.locale_key`);
  const grants = () => rows('SELECT tenant_id, role_id, permission_id FROM role_permission ORDER BY 1, 2, 3');

  it('stores the manifest rows, and seeding it again changes no row and keeps every grant', async () => {
    const stored = await permissions();
    const expected = flattenManifest([], manifestBefore).map((r) => ({
      code: r.code,
      type: r.type,
      locale_key: r.localeKey,
      parent: r.parentLocaleKey,
      path: r.path,
      icon: r.icon,
      sort: r.sort,
      platform_only: r.platformOnly,
      status: 'enabled',
      name: r.name,
      name_en: r.nameEn,
    }));
    expect(stored.map(({ id, ...row }) => row)).toEqual(
      expected.sort((a, b) => (a.locale_key < b.locale_key ? -1 : 1)),
    );
    const granted = await grants();
    expect(granted.length).toBeGreaterThan(100);

    await api.tenancy.asSystem(seedBase);
    expect(await permissions()).toEqual(stored);
    expect(await grants()).toEqual(granted);
  });

  it('gives the permissions added in 0060 to the packages and roles that hold their neighbours', async () => {
    const added = ['community:post:report', 'people:doctor-type:import', 'system:client:import'];
    const holders = (code: string) =>
      rows(`SELECT r.code AS role FROM role_permission rp JOIN role r ON r.id = rp.role_id
        JOIN permission p ON p.id = rp.permission_id WHERE p.code = '${code}' ORDER BY 1`);
    const packaged = (code: string) =>
      rows(`SELECT pp.package_id FROM package_permission pp JOIN permission p ON p.id = pp.permission_id
        WHERE p.code = '${code}'`);
    // a database of before the migration: its permissions are not there, and no seed has run since
    await api.db.transaction().execute((tx) => migration0060.down(tx as never));
    expect(await rows(`SELECT code FROM permission WHERE code IN ('${added.join("', '")}')`)).toEqual([]);
    await api.db.transaction().execute((tx) => migration0060.up(tx as never));
    expect(await holders('community:post:report')).toEqual([{ role: 'platform_admin' }, { role: 'tenant_admin' }]);
    expect(await holders('people:doctor-type:import')).toEqual([{ role: 'platform_admin' }, { role: 'tenant_admin' }]);
    expect(await holders('system:client:import')).toEqual([{ role: 'platform_admin' }]);
    expect(await packaged('community:post:report')).toHaveLength(1);
    expect(await packaged('system:client:import')).toEqual([]);
    // the seed then finds them where it puts them, and keeps their grants
    await api.tenancy.asSystem(seedBase);
    expect(await holders('community:post:report')).toHaveLength(2);
  });

  it('seeds every permission an operation of the OpenAPI document asks for', async () => {
    const seeded = new Set(
      (await rows(`SELECT code FROM permission WHERE code IS NOT NULL AND status = 'enabled'`)).map((r) => r.code),
    );
    const { operations } = await loadOperations(api);
    const missing = operations.flatMap((op) =>
      [op.permission]
        .flat()
        .filter((code) => code !== 'public' && code !== 'authenticated' && !seeded.has(code))
        .map((code) => `${describeOperation(op)}: ${code}`),
    );
    expect(missing).toEqual([]);
  });
});
