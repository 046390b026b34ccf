import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateDown, migrateToLatest } from '../../server/src/db/migrator';
import { organizationDependents } from '../../server/src/modules/people/organization/organization.dependents';
import { engines, importForm, type Json, readXlsx, twoTenants, xlsxFile } from './helpers';

const en = { 'accept-language': 'en-US' };
const base = '/api/people/organization';

describe.each(engines())('the organisation tree on $name', (engine) => {
  const s = twoTenants(engine);
  const { call } = s;
  const create = (body: Record<string, unknown>) => s.create(base, body);

  const get = async (id: string) => (await call('GET', `${base}/${id}`)).body as Json;
  const level = async (parentId?: string) =>
    (await call('GET', `${base}/tree${parentId ? `?parentId=${parentId}` : ''}`)).body as Json[];

  it('builds hospital → training base → specialty base → department → teaching group, with paths and depths', async () => {
    const hospital = await create({ code: 'H1', name: '第一医院', orgType: 'hospital' });
    expect(hospital).toMatchObject({
      parentId: null,
      depth: 0,
      path: `/${hospital.id}/`,
      status: 'enabled',
      version: 0,
    });
    const base1 = await create({ code: 'B1', name: '住培基地', orgType: 'training_base', parentId: hospital.id });
    const specialty = await create({
      code: 'S1',
      name: '内科基地',
      orgType: 'specialty_base',
      parentId: base1.id,
      specialtyCode: '0100',
      baseLevel: 'national',
    });
    const dept = await create({ code: 'D1', name: '心内科', orgType: 'department', parentId: specialty.id });
    const group = await create({ code: 'G1', name: '心内教学组', orgType: 'teaching_group', parentId: dept.id });
    expect(group).toMatchObject({
      depth: 4,
      path: `/${hospital.id}/${base1.id}/${specialty.id}/${dept.id}/${group.id}/`,
    });

    const roots = await level();
    expect(roots.map((r) => [r.code, r.hasChildren])).toContainEqual(['H1', true]);
    expect((await level(dept.id)).map((r) => [r.code, r.hasChildren])).toEqual([['G1', false]]);
    expect((await get(group.id)).ancestry).toBe('第一医院 / 住培基地 / 内科基地 / 心内科');

    const found = await call('GET', `${base}?keyword=心内&orgType=teaching_group`);
    expect(found.body.data.map((r: Json) => r.code)).toEqual(['G1']);

    // every write is in the audit trail the profile shows
    const trail = await call('GET', `/api/system/audit-log?resourceType=organization&resourceId=${group.id}`);
    expect(trail.status).toBe(200);
    expect(trail.body.data.map((r: Json) => r.action)).toEqual(['people:organization:create']);
  });

  it('refuses what the allowed-parent matrix forbids, naming the field', async () => {
    const hospital = await create({ code: 'H2', name: '第二医院', orgType: 'hospital' });
    const dept = await create({ code: 'D2', name: '外科', orgType: 'department', parentId: hospital.id });

    const underDept = await call('POST', base, { code: 'H3', name: '医院', orgType: 'hospital', parentId: dept.id });
    expect(underDept.status).toBe(400);
    expect(underDept.body.code).toBe('common.validation');
    expect(underDept.body.fields).toEqual([
      { field: 'orgType', message: 'a hospital cannot sit under a department (only under the top level)' },
    ]);
    const rootGroup = await call('POST', base, { code: 'G2', name: '组', orgType: 'teaching_group' });
    expect(rootGroup.body.fields[0]).toMatchObject({ field: 'orgType' });
    expect(rootGroup.body.fields[0].message).toContain('only under a department or a specialty base');

    const noSpecialty = await call('POST', base, { code: 'B2', name: '基地', orgType: 'training_base' });
    expect(noSpecialty.status).toBe(201);
    const specialty = await call('POST', base, {
      code: 'S2',
      name: '专业基地',
      orgType: 'specialty_base',
      parentId: noSpecialty.body.id,
    });
    expect(specialty.body.fields).toEqual([{ field: 'specialtyCode', message: 'is required for a specialty base' }]);

    const missingParent = await call('POST', base, {
      code: 'D9',
      name: 'x',
      orgType: 'department',
      parentId: '999999',
    });
    expect(missingParent.body.fields).toEqual([
      { field: 'parentId', message: 'is not an existing record of your tenant' },
    ]);

    const sameCode = await call('POST', base, { code: 'H2', name: '别名', orgType: 'hospital' });
    expect(sameCode.body.fields).toEqual([{ field: 'code', message: 'is used by another organisation' }]);
    const sameName = await call('POST', base, {
      code: 'D3',
      name: '外科',
      orgType: 'department',
      parentId: hospital.id,
    });
    expect(sameName.body.fields[0].field).toBe('name');

    // a change of type must fit the parent and keep the children valid
    const toGroup = await call('PUT', `${base}/${dept.id}`, { orgType: 'teaching_group', version: dept.version });
    expect(toGroup.body.fields[0]).toMatchObject({ field: 'orgType' });
    await create({ code: 'G3', name: '外科教学组', orgType: 'teaching_group', parentId: dept.id });
    const toOffice = await call('PUT', `${base}/${dept.id}`, { orgType: 'office', version: dept.version });
    expect(toOffice.body.fields).toEqual([
      { field: 'orgType', message: 'its subordinate teaching group cannot sit under an office' },
    ]);
  });

  it('edits with optimistic locking and disables and enables a node', async () => {
    const office = await create({ code: 'O1', name: '科教科', orgType: 'hospital' });
    const edited = await call('PUT', `${base}/${office.id}`, { name: '科教处', phone: '010-12345678', version: 0 });
    expect(edited.body).toMatchObject({ name: '科教处', phone: '010-12345678', version: 1 });
    const stale = await call('PUT', `${base}/${office.id}`, { name: '旧', version: 0 });
    expect(stale.status).toBe(409);
    expect((await get(office.id)).name).toBe('科教处');

    const disabled = await call('PUT', `${base}/${office.id}`, { status: 'disabled', version: 1 });
    expect(disabled.body).toMatchObject({ status: 'disabled', version: 2 });
    expect((await call('GET', `${base}/tree?status=enabled`)).body.map((r: Json) => r.code)).not.toContain('O1');
    expect((await call('PUT', `${base}/${office.id}`, { status: 'enabled', version: 2 })).body.status).toBe('enabled');
  });

  it('moves a subtree, re-pathing every node under it, and refuses a move under itself or a misplaced one', async () => {
    const h = await create({ code: 'MH', name: '移动医院', orgType: 'hospital' });
    const h2 = await create({ code: 'MH2', name: '目标医院', orgType: 'hospital' });
    const dept = await create({ code: 'MD', name: '儿科', orgType: 'department', parentId: h.id });
    const sub = await create({ code: 'MD2', name: '新生儿科', orgType: 'department', parentId: dept.id });
    const group = await create({ code: 'MG', name: '儿科教学组', orgType: 'teaching_group', parentId: sub.id });

    const intoItself = await call('POST', `${base}/${dept.id}/move`, { parentId: sub.id, version: dept.version });
    expect(intoItself.status).toBe(400);
    expect(intoItself.body.fields).toEqual([
      { field: 'parentId', message: 'cannot move an organisation under itself or one of its subordinates' },
    ]);
    const ontoItself = await call('POST', `${base}/${dept.id}/move`, { parentId: dept.id, version: dept.version });
    expect(ontoItself.body.fields[0].field).toBe('parentId');
    const toTop = await call('POST', `${base}/${dept.id}/move`, { parentId: null, version: dept.version });
    expect(toTop.body.fields[0]).toMatchObject({ field: 'parentId' });
    expect(toTop.body.fields[0].message).toContain('cannot sit under the top level');
    const stale = await call('POST', `${base}/${dept.id}/move`, { parentId: h2.id, version: dept.version + 1 });
    expect(stale.status).toBe(409);

    const moved = await call('POST', `${base}/${dept.id}/move`, { parentId: h2.id, version: dept.version });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ parentId: h2.id, path: `/${h2.id}/${dept.id}/`, depth: 1, version: 1 });
    expect(await get(group.id)).toMatchObject({
      path: `/${h2.id}/${dept.id}/${sub.id}/${group.id}/`,
      depth: 3,
      ancestry: '目标医院 / 儿科 / 新生儿科',
    });
    expect((await level(h.id)).length).toBe(0);
    expect((await level(h2.id)).map((r) => r.code)).toEqual(['MD']);

    // a department may also sit under another department: the subtree moves a level down
    const deeper = await call('POST', `${base}/${sub.id}/move`, { parentId: h2.id, version: sub.version });
    expect(deeper.body).toMatchObject({ depth: 1, path: `/${h2.id}/${sub.id}/` });
    expect((await get(group.id)).depth).toBe(2);

    const trail = await call('GET', `/api/system/audit-log?resourceType=organization&resourceId=${dept.id}`);
    expect(trail.body.data[0]).toMatchObject({ action: 'people:organization:move' });
    expect(trail.body.data[0].before.parentId).toBe(h.id);
    expect(trail.body.data[0].after.parentId).toBe(h2.id);
  });

  it('refuses to delete a node with children, deletes a leaf, and a parent with its children together', async () => {
    const h = await create({ code: 'XH', name: '删除医院', orgType: 'hospital' });
    const dept = await create({ code: 'XD', name: '眼科', orgType: 'department', parentId: h.id });
    const refused = await call('DELETE', `${base}/${h.id}`);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      code: 'organization.hasChildren',
      message: 'The organisation still has subordinate organisations; it cannot be deleted',
    });
    expect((await call('GET', `${base}/${h.id}`)).status).toBe(200);

    const both = await call('POST', `${base}/batch-delete`, { ids: [h.id, dept.id] });
    expect(both.body).toEqual({ deleted: 2 });
    expect((await call('GET', `${base}/${dept.id}`)).status).toBe(404);
  });

  it('refuses a delete while a dependent (members, trainees) still points at the node', async () => {
    const h = await create({ code: 'YH', name: '有成员医院', orgType: 'hospital' });
    organizationDependents.push({
      error: 'organization.hasMembers',
      count: async (_tx, ids) => (ids.includes(h.id) ? 1 : 0),
    });
    try {
      const refused = await call('DELETE', `${base}/${h.id}`);
      expect(refused).toMatchObject({ status: 409, body: { code: 'organization.hasMembers' } });
    } finally {
      organizationDependents.pop();
    }
    expect((await call('DELETE', `${base}/${h.id}`)).status).toBe(204);
  });

  it('keeps tenants apart: another tenant sees none of the tree and cannot reach a node by id', async () => {
    const mine = await create({ code: 'T1', name: '本院', orgType: 'hospital' });
    expect((await call('GET', `${base}/tree`, undefined, s.other)).body).toEqual([]);
    expect((await call('GET', base, undefined, s.other)).body.total).toBe(0);
    expect((await call('GET', `${base}/${mine.id}`, undefined, s.other)).status).toBe(404);
    expect((await call('PUT', `${base}/${mine.id}`, { name: 'x', version: 0 }, s.other)).status).toBe(404);
    expect((await call('POST', `${base}/${mine.id}/move`, { parentId: null, version: 0 }, s.other)).status).toBe(404);
    expect((await call('DELETE', `${base}/${mine.id}`, undefined, s.other)).status).toBe(404);
    // the same code is free in another tenant, and a parent of another tenant is not a parent
    const theirs = await call('POST', base, { code: 'T1', name: '本院', orgType: 'hospital' }, s.other);
    expect(theirs.status).toBe(201);
    const across = await call(
      'POST',
      base,
      { code: 'T2', name: '科室', orgType: 'department', parentId: mine.id },
      s.other,
    );
    expect(across.body.fields).toEqual([{ field: 'parentId', message: 'is not an existing record of your tenant' }]);
    const moveAcross = await call('POST', `${base}/${theirs.body.id}/move`, { parentId: mine.id, version: 0 }, s.other);
    expect(moveAcross.body.fields[0].field).toBe('parentId');
  });

  it('imports a sheet naming parents by code (a parent made by an earlier row too), and exports where each sits', async () => {
    await create({ code: 'IH', name: '导入医院', orgType: 'hospital' });
    const sheet = await xlsxFile([
      ['code', 'name', 'orgType', 'parentCode', 'specialtyCode'],
      ['IB', '导入基地', 'training_base', 'IH', ''],
      ['IS', '导入专业基地', 'specialty_base', 'IB', '0200'],
      ['IX', '错位医院', 'hospital', 'IB', ''],
    ]);
    const refused = await s.api.fetch('POST', `${base}/import`, {
      token: s.demo,
      form: importForm(sheet, { dryRun: false }),
      headers: en,
    });
    const report: Json = await refused.json();
    expect(report.failed).toEqual([
      expect.objectContaining({ row: 4, message: expect.stringContaining('cannot sit under a training base') }),
    ]);
    expect((await call('GET', `${base}?keyword=导入基地`)).body.total).toBe(0);

    const good = await xlsxFile([
      ['code', 'name', 'orgType', 'parentCode', 'specialtyCode'],
      ['IB', '导入基地', 'training_base', 'IH', ''],
      ['IS', '导入专业基地', 'specialty_base', 'IB', '0200'],
    ]);
    const applied = await s.api.fetch('POST', `${base}/import`, {
      token: s.demo,
      form: importForm(good, { dryRun: false }),
      headers: en,
    });
    expect(await applied.json()).toMatchObject({ created: 2, failed: [] });
    const specialty = (await call('GET', `${base}?keyword=IS`)).body.data[0];
    expect(specialty).toMatchObject({ depth: 2, ancestry: '导入医院 / 导入基地' });

    const file = await s.api.fetch('GET', `${base}/export?keyword=导入`, { token: s.demo, headers: en });
    const rows = await readXlsx(await file.arrayBuffer());
    expect(rows[0]?.slice(0, 5)).toEqual(['Code', 'Name', 'Short name', 'Type', 'Within']);
    expect(rows.slice(1).map((r) => [r[0], r[3], r[4] ?? ''])).toEqual([
      ['IH', 'Hospital', ''],
      ['IB', 'Training base', '导入医院'],
      ['IS', 'Specialty base', '导入医院 / 导入基地'],
    ]);

    // a file exported in Chinese, types by their labels, imports again (without the export's own column, 所属)
    const zh = await s.api.fetch('GET', `${base}/export?keyword=导入`, { token: s.demo });
    const zhRows = await readXlsx(await zh.arrayBuffer());
    expect(zhRows.slice(1).map((r) => r[3])).toEqual(['医院', '培训基地', '专业基地']);
    const again = await s.api.fetch('POST', `${base}/import`, {
      token: s.demo,
      form: importForm(await xlsxFile(zhRows.map((r) => r.filter((_, i) => i !== 4))), {
        dryRun: false,
        mode: 'upsert',
      }),
    });
    expect(await again.json()).toMatchObject({ created: 0, updated: 3, failed: [] });
    expect((await call('GET', `${base}?keyword=IS`)).body.data[0]).toMatchObject({ orgType: 'specialty_base' });
  });

  it('needs the permission codes: a viewer is refused', async () => {
    expect((await call('GET', `${base}/tree`, undefined, s.viewer)).status).toBe(403);
    expect((await call('POST', base, { code: 'V1', name: 'v', orgType: 'hospital' }, s.viewer)).status).toBe(403);
  });

  // last: it takes the schema back one migration and forward again
  it('migration 0014 renames the placeholder codes org:organization:* in place, keeping every grant', async () => {
    const codes = async () =>
      (
        await sql<{ code: string; grants: string }>`SELECT p.code, count(r.role_id)::text AS grants FROM permission p
          LEFT JOIN role_permission r ON r.permission_id = p.id
          WHERE p.code LIKE '%:organization:%' GROUP BY p.code ORDER BY p.code`.execute(s.api.db)
      ).rows;
    const before = await codes();
    expect(before.map((r) => r.code)).toContain('people:organization:move');
    expect(before.every((r) => Number(r.grants) > 0)).toBe(true);
    // later migrations go first
    const reverted: string[] = [];
    while (!reverted.includes('reverted 0014_organization')) reverted.push(...(await migrateDown(s.api.db)));
    const older = await codes();
    expect(older).toEqual(before.map((r) => ({ ...r, code: r.code.replace('people:', 'org:') })));
    await migrateToLatest(s.api.db);
    expect(await codes()).toEqual(before);
  });
});
