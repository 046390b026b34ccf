import { describe, expect, it } from 'vitest';
import { isIdCardNo, valueRule } from '../../server/src/modules/people/trainee-field/custom-field';
import { engines, type Json, twoTenants } from './helpers';

const types = '/api/people/trainee-type';
const fields = '/api/people/trainee-field';

describe('custom field values', () => {
  it('hold each kind to its rule', () => {
    expect(isIdCardNo('11010519491231002X')).toBe(true);
    expect(isIdCardNo('110105194912310021')).toBe(false);
    const choice = valueRule({
      fieldType: 'multi_select',
      options: [
        { value: 'a', label: 'A' },
        { value: 'b', label: 'B' },
      ],
    });
    expect(choice.safeParse(['a', 'b']).success).toBe(true);
    expect(choice.safeParse(['a', 'a']).success).toBe(false);
    expect(choice.safeParse(['c']).success).toBe(false);
    const range = valueRule({ fieldType: 'date_range' });
    expect(range.safeParse(['2026-01-01', '2026-02-01']).success).toBe(true);
    expect(range.safeParse(['2026-03-01', '2026-02-01']).success).toBe(false);
    const score = valueRule({ fieldType: 'integer', validation: { min: 0, max: 100 } });
    expect(score.safeParse(101).success).toBe(false);
    expect(valueRule({ fieldType: 'mobile' }).safeParse('13800138000').success).toBe(true);
    expect(valueRule({ fieldType: 'text', validation: { pattern: '^[A-Z]+$' } }).safeParse('abc').success).toBe(false);
  });
});

describe.each(engines())('trainee types and their fields on $name', (engine) => {
  const s = twoTenants(engine);
  const { call, create } = s;

  const fieldsOf = async (typeId: string) =>
    ((await call('GET', `${fields}?traineeTypeId=${typeId}&pageSize=100&sort=sort`)).body.data as Json[]).map(
      (f) => f.key,
    );

  it('defines a type with its rules, refusing a bad pattern, unknown approving roles and taken names', async () => {
    const badPattern = await call('POST', types, {
      code: 'r1',
      name: '住培',
      category: 'residency',
      traineeNoPattern: 'R{yyyy}',
    });
    expect(badPattern.status).toBe(400);
    expect(badPattern.body.fields[0]).toMatchObject({ field: 'traineeNoPattern' });
    const noLevels = await call('POST', types, {
      code: 'r1',
      name: '住培',
      category: 'residency',
      requiresRegistrationAudit: true,
    });
    expect(noLevels.body.fields[0]).toMatchObject({ field: 'auditLevels' });
    const noRole = await call('POST', types, {
      code: 'r1',
      name: '住培',
      category: 'residency',
      requiresRegistrationAudit: true,
      auditLevels: ['no_such_role'],
    });
    expect(noRole.body.fields).toEqual([
      { field: 'auditLevels', message: 'names roles that do not exist: no_such_role' },
    ]);

    const type = await create(types, {
      code: 'residency',
      name: '住院医师规范化培训',
      category: 'residency',
      defaultTrainingYears: 3,
      traineeNoPattern: 'R{yyyy}{seq:5}',
    });
    expect(type).toMatchObject({ auditLevels: [], defaultTrainingYears: 3, requiresRegistrationAudit: false });
    const taken = await call('POST', types, { code: 'residency2', name: '住院医师规范化培训', category: 'residency' });
    expect(taken.body.fields).toEqual([{ field: 'name', message: 'another trainee type has this name' }]);
  });

  it('defines fields: keys unique in the type, choices with options, dictionaries that exist, defaults the field accepts', async () => {
    const type = await create(types, { code: 'specialist', name: '专科医师', category: 'specialist' });
    const school = await create(fields, {
      traineeTypeId: type.id,
      key: 'school',
      label: '毕业院校',
      fieldType: 'text',
    });
    expect(school).toMatchObject({ sort: 0, status: 'active', required: false, visibility: 'self_and_admin' });
    const again = await call('POST', fields, {
      traineeTypeId: type.id,
      key: 'school',
      label: '院校',
      fieldType: 'text',
    });
    expect(again.body.fields).toEqual([{ field: 'key', message: 'another field of this trainee type has this key' }]);
    const noOptions = await call('POST', fields, {
      traineeTypeId: type.id,
      key: 'degree',
      label: '学位',
      fieldType: 'select',
    });
    expect(noOptions.body.fields[0]).toMatchObject({ field: 'options' });
    const noDict = await call('POST', fields, {
      traineeTypeId: type.id,
      key: 'sex',
      label: '性别',
      fieldType: 'dict',
      dictTypeCode: 'no_such_dict',
    });
    expect(noDict.body.fields).toEqual([{ field: 'dictTypeCode', message: 'is not an existing dictionary' }]);
    const badDefault = await call('POST', fields, {
      traineeTypeId: type.id,
      key: 'degree',
      label: '学位',
      fieldType: 'select',
      options: [
        { value: 'bachelor', label: '学士' },
        { value: 'master', label: '硕士' },
      ],
      defaultValue: 'doctor',
    });
    expect(badDefault.body.fields[0]).toMatchObject({ field: 'defaultValue' });
    const degree = await create(fields, {
      traineeTypeId: type.id,
      key: 'degree',
      label: '学位',
      fieldType: 'select',
      options: [
        { value: 'bachelor', label: '学士' },
        { value: 'master', label: '硕士' },
      ],
      defaultValue: 'master',
      required: true,
    });
    expect(degree).toMatchObject({
      sort: 1,
      defaultValue: 'master',
      options: [
        { value: 'bachelor', label: '学士' },
        { value: 'master', label: '硕士' },
      ],
    });
    await create(fields, {
      traineeTypeId: type.id,
      key: 'gender',
      label: '性别',
      fieldType: 'dict',
      dictTypeCode: 'gender',
    });
    expect((await call('GET', `${types}/${type.id}`)).body.fieldCount).toBe(3);

    // reorder: every field once, in the new order
    const partial = await call('POST', `${fields}/reorder`, { traineeTypeId: type.id, ids: [degree.id] });
    expect(partial.status).toBe(400);
    const ids = (await call('GET', `${fields}?traineeTypeId=${type.id}&sort=sort`)).body.data.map((f: Json) => f.id);
    const reordered = await call('POST', `${fields}/reorder`, { traineeTypeId: type.id, ids: [...ids].reverse() });
    expect(reordered.status, JSON.stringify(reordered.body)).toBe(200);
    expect(reordered.body.map((f: Json) => f.key)).toEqual(['gender', 'degree', 'school']);
    expect(await fieldsOf(type.id)).toEqual(['gender', 'degree', 'school']);

    // archive, never delete
    const removed = await call('DELETE', `${fields}/${school.id}`);
    expect(removed.status).toBe(409);
    expect(removed.body.code).toBe('traineeField.archiveInstead');
    const current = (await call('GET', `${fields}/${school.id}`)).body;
    const stale = await call('POST', `${fields}/${school.id}/archive`, { version: current.version + 1 });
    expect(stale.status).toBe(409);
    const archived = await call('POST', `${fields}/${school.id}/archive`, { version: current.version });
    expect(archived.body.status).toBe('archived');
    expect((await call('GET', `${types}/${type.id}`)).body.fieldCount).toBe(2);
    const restored = await call('POST', `${fields}/${school.id}/restore`, { version: archived.body.version });
    expect(restored.body.status).toBe('active');
  });

  it('defines a field of several dictionary items: the dictionary named and existing, a default without repeats', async () => {
    const type = await create(types, { code: 'intl', name: '国际学员', category: 'other' });
    const field = { traineeTypeId: type.id, key: 'languages', label: '语言', fieldType: 'dict_multi' };
    const noDict = await call('POST', fields, field);
    expect(noDict.status).toBe(400);
    expect(noDict.body.fields).toEqual([{ field: 'dictTypeCode', message: 'is required for a dictionary field' }]);
    const repeated = await call('POST', fields, { ...field, dictTypeCode: 'gender', defaultValue: ['male', 'male'] });
    expect(repeated.body.fields[0]).toMatchObject({ field: 'defaultValue' });
    const one = await call('POST', fields, { ...field, dictTypeCode: 'gender', defaultValue: 'male' });
    expect(one.body.fields[0]).toMatchObject({ field: 'defaultValue' });
    expect(await fieldsOf(type.id)).toEqual([]);
    const saved = await create(fields, { ...field, dictTypeCode: 'gender', defaultValue: ['male', 'female'] });
    expect(saved).toMatchObject({ fieldType: 'dict_multi', dictTypeCode: 'gender', defaultValue: ['male', 'female'] });
  });

  it('clones a type with its active fields, in their order', async () => {
    const type = await create(types, { code: 'intern', name: '实习生', category: 'intern' });
    await create(fields, { traineeTypeId: type.id, key: 'a', label: 'A', fieldType: 'text' });
    const b = await create(fields, {
      traineeTypeId: type.id,
      key: 'b',
      label: 'B',
      fieldType: 'switch',
      defaultValue: true,
    });
    await create(fields, { traineeTypeId: type.id, key: 'c', label: 'C', fieldType: 'integer' });
    await call('POST', `${fields}/${b.id}/archive`, { version: b.version });
    const taken = await call('POST', `${types}/${type.id}/clone`, { code: 'intern', name: '实习生二' });
    expect(taken.body.fields).toEqual([{ field: 'code', message: 'is used by another trainee type' }]);
    const copy = await call('POST', `${types}/${type.id}/clone`, { code: 'intern2', name: '实习生（新版）' });
    expect(copy.status, JSON.stringify(copy.body)).toBe(200);
    expect(copy.body).toMatchObject({ code: 'intern2', category: 'intern', fieldCount: 2 });
    expect(await fieldsOf(copy.body.id)).toEqual(['a', 'c']);
  });

  it("keeps each tenant's types and fields to itself, and asks for the permissions", async () => {
    const type = await create(types, { code: 'cme', name: '继续教育', category: 'cme' });
    const theirs = await call('POST', types, { code: 'cme', name: '继续教育', category: 'cme' }, s.other);
    expect(theirs.status).toBe(201);
    expect((await call('GET', `${types}/${theirs.body.id}`)).status).toBe(404);
    const intoTheirs = await call('POST', fields, {
      traineeTypeId: theirs.body.id,
      key: 'x',
      label: 'X',
      fieldType: 'text',
    });
    expect(intoTheirs.body.fields).toEqual([
      { field: 'traineeTypeId', message: 'is not an existing record of your tenant' },
    ]);
    const cloneTheirs = await call('POST', `${types}/${theirs.body.id}/clone`, { code: 'x1', name: 'x1' });
    expect(cloneTheirs.status).toBe(404);
    const denied = await call('POST', `${types}/${type.id}/clone`, { code: 'x2', name: 'x2' }, s.viewer);
    expect(denied.status).toBe(403);
  });
});
