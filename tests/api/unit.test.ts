import { describe, expect, it } from 'vitest';
import { creditCodeCheck, isCreditCode } from '../../server/src/modules/people/unit/credit-code';
import { type UnitReference, unitReferences } from '../../server/src/modules/people/unit/unit.references';
import { engines, type Json, twoTenants } from './helpers';

const base = '/api/people/unit';
/** Valid codes (GB 32100-2015 check characters). */
const CODE_A = '91350100M000100Y43';
const CODE_B = '91110108551385082Q';

describe('the unified social credit code', () => {
  it('accepts a code whose last character is the check of the others, and nothing else', () => {
    expect(isCreditCode(CODE_A)).toBe(true);
    expect(isCreditCode(CODE_B)).toBe(true);
    expect(isCreditCode('91350100M000100Y44')).toBe(false); // wrong check character
    expect(isCreditCode('91350100M000100Y4')).toBe(false); // too short
    expect(isCreditCode('9135010OM000100Y43')).toBe(false); // O is not in the alphabet
    expect(creditCodeCheck(CODE_A.slice(0, 17))).toBe('3');
  });
});

describe.each(engines())('external work units on $name', (engine) => {
  const s = twoTenants(engine);
  const { call } = s;
  const create = (body: Record<string, unknown>) => s.create(base, body);

  it('creates a unit with its coded fields, finds it by name or credit code, and audits the write', async () => {
    const unit = await create({
      name: '第一人民医院',
      creditCode: CODE_A.toLowerCase(),
      unitType: 'hospital',
      hospitalGrade: 'grade_3',
      hospitalLevel: 'a',
      ownership: 'public',
      industryCode: '84',
      districtCode: '110100',
      contactPhone: '010-12345678',
      website: 'https://hospital.example.cn',
      isPartner: true,
    });
    expect(unit).toMatchObject({ creditCode: CODE_A, status: 'enabled', isPartner: true, version: 0 });
    const byCode = await call('GET', `${base}?keyword=M000100Y43`);
    expect(byCode.body.data.map((r: Json) => r.name)).toEqual(['第一人民医院']);
    const byType = await call('GET', `${base}?unitType=hospital&keyword=人民`);
    expect(byType.body.total).toBe(1);
    const trail = await call('GET', `/api/system/audit-log?resourceType=unit&resourceId=${unit.id}`);
    expect(trail.body.data.map((r: Json) => r.action)).toEqual(['people:unit:create']);
  });

  it('refuses a bad check character, an unknown code and a taken name or credit code, naming the field', async () => {
    const before = (await call('GET', base)).body.total;
    const badCode = await call('POST', base, { name: '错误代码', creditCode: '91350100M000100Y44' });
    expect(badCode.status).toBe(400);
    expect(badCode.body.fields).toEqual([
      { field: 'creditCode', message: 'an 18-character unified social credit code whose check character matches' },
    ]);
    const badType = await call('POST', base, { name: '未知类型', unitType: 'spaceport' });
    expect(badType.status).toBe(400);
    expect(badType.body.fields[0]).toMatchObject({ field: 'unitType' });
    const badIndustry = await call('POST', base, { name: '未知行业', industryCode: '9999' });
    expect(badIndustry.body.fields[0]).toMatchObject({ field: 'industryCode', message: 'is not an industry code' });
    const badDistrict = await call('POST', base, { name: '未知区划', districtCode: '999999' });
    expect(badDistrict.body.fields[0]).toMatchObject({ field: 'districtCode', message: 'is not a district code' });

    await create({ name: '重名单位', creditCode: CODE_B });
    const sameName = await call('POST', base, { name: '重名单位' });
    expect(sameName.status).toBe(400);
    expect(sameName.body.fields).toEqual([{ field: 'name', message: 'another unit has this name' }]);
    const sameCode = await call('POST', base, { name: '另一单位', creditCode: CODE_B });
    expect(sameCode.body.fields).toEqual([
      { field: 'creditCode', message: 'another unit has this unified social credit code' },
    ]);
    expect((await call('GET', base)).body.total).toBe(before + 1);
  });

  it('refuses a stale edit and keeps the newer one', async () => {
    const unit = await create({ name: '编辑单位' });
    const first = await call('PUT', `${base}/${unit.id}`, { contactName: '张三', version: 0 });
    expect(first.status).toBe(200);
    const stale = await call('PUT', `${base}/${unit.id}`, { contactName: '李四', version: 0 });
    expect(stale.status).toBe(409);
    expect((await call('GET', `${base}/${unit.id}`)).body.contactName).toBe('张三');
  });

  it('merges duplicates: references and names move to the unit kept, the duplicates go, all or nothing', async () => {
    const kept = await create({ name: '市中心医院' });
    const dupA = await create({ name: '市中心医院（旧称）' });
    const dupB = await create({ name: '中心医院' });
    const moved: [readonly string[], string][] = [];
    const reference: UnitReference = {
      table: 'test',
      repoint: async (_tx, from, to) => {
        moved.push([from, to]);
      },
    };
    unitReferences.push(reference);
    try {
      const missing = await call('POST', `${base}/${kept.id}/merge`, { sourceIds: [dupA.id, '999999'], version: 0 });
      expect(missing.status).toBe(400);
      expect(missing.body.fields[0]).toMatchObject({ field: 'sourceIds.1' });
      const itself = await call('POST', `${base}/${kept.id}/merge`, { sourceIds: [kept.id], version: 0 });
      expect(itself.body.fields[0]).toMatchObject({ field: 'sourceIds' });
      const stale = await call('POST', `${base}/${kept.id}/merge`, { sourceIds: [dupA.id], version: 5 });
      expect(stale.status).toBe(409);
      expect((await call('GET', `${base}/${dupA.id}`)).status).toBe(200);
      expect(moved).toEqual([]);

      const merged = await call('POST', `${base}/${kept.id}/merge`, { sourceIds: [dupA.id, dupB.id], version: 0 });
      expect(merged.status, JSON.stringify(merged.body)).toBe(200);
      expect(merged.body).toMatchObject({ id: kept.id, version: 1, aliases: '市中心医院（旧称） / 中心医院' });
      expect(moved).toEqual([[[dupA.id, dupB.id], kept.id]]);
      expect((await call('GET', `${base}/${dupA.id}`)).status).toBe(404);
      expect((await call('GET', `${base}/${dupB.id}`)).status).toBe(404);
      const aliases = await call('GET', `${base}/${kept.id}/aliases`);
      expect(aliases.body.map((a: Json) => a.name)).toEqual(['中心医院', '市中心医院（旧称）']);
      const trail = await call('GET', `/api/system/audit-log?resourceType=unit&resourceId=${kept.id}`);
      expect(trail.body.data.map((r: Json) => r.action)).toContain('people:unit:merge');

      // a unit merged later brings the names merged into it
      const again = await create({ name: '新院区' });
      await call('POST', `${base}/${again.id}/merge`, { sourceIds: [kept.id], version: 0 });
      const carried = await call('GET', `${base}/${again.id}/aliases`);
      expect(carried.body.map((a: Json) => a.name).sort()).toEqual(
        ['中心医院', '市中心医院', '市中心医院（旧称）'].sort(),
      );
    } finally {
      unitReferences.splice(unitReferences.indexOf(reference), 1);
    }
  });

  it("never shows or merges another tenant's units, and asks for the merge permission", async () => {
    const mine = await create({ name: '本租户单位' });
    const theirs = await call('POST', base, { name: '他租户单位' }, s.other);
    expect(theirs.status).toBe(201);
    expect((await call('GET', `${base}/${theirs.body.id}`)).status).toBe(404);
    expect((await call('GET', `${base}?keyword=他租户`)).body.total).toBe(0);
    const cross = await call('POST', `${base}/${mine.id}/merge`, { sourceIds: [theirs.body.id], version: 0 });
    expect(cross.status).toBe(400);
    expect((await call('GET', `${base}/${theirs.body.id}`, undefined, s.other)).status).toBe(200);
    expect((await call('GET', `${base}/${theirs.body.id}/aliases`)).status).toBe(404);
    const denied = await call('POST', `${base}/${mine.id}/merge`, { sourceIds: [mine.id], version: 0 }, s.viewer);
    expect(denied.status).toBe(403);
  });
});
