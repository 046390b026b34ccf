import ExcelJS from 'exceljs';
import { beforeAll, describe, expect, it } from 'vitest';
import { engines, importForm, type Json, twoTenants, xlsxFile } from './helpers';

const trainees = '/api/people/trainee';
const types = '/api/people/trainee-type';
const fields = '/api/people/trainee-field';
const orgs = '/api/people/organization';

type Lang = 'zh-CN' | 'en-US';

describe.each(engines())('a trainee import as people fill it in, on $name', (engine) => {
  const s = twoTenants(engine);
  let type: Json;

  beforeAll(async () => {
    const hospital = await s.create(orgs, { code: 'IH1', name: '导入医院', orgType: 'hospital' });
    await s.create(orgs, { code: 'IB1', name: '导入基地', orgType: 'training_base', parentId: hospital.id });
    type = await s.create(types, {
      code: 'imported',
      name: '导入学员',
      category: 'residency',
      traineeNoPattern: 'I{yyyy}{seq:4}',
    });
    await s.create(fields, {
      traineeTypeId: type.id,
      key: 'shift',
      label: '班次',
      fieldType: 'select',
      options: [
        { value: 'day', label: '白班' },
        { value: 'night', label: '夜班' },
      ],
    });
    await s.create(fields, {
      traineeTypeId: type.id,
      key: 'days',
      label: '值班日',
      fieldType: 'multi_select',
      options: [
        { value: 'mon', label: '周一' },
        { value: 'tue', label: '周二' },
      ],
    });
    await s.create(fields, {
      traineeTypeId: type.id,
      key: 'school',
      label: '本科院校',
      fieldType: 'text',
      required: true,
    });
  });

  const template = async (lang: Lang) => {
    const res = await s.api.fetch('GET', `${trainees}/import-template?traineeTypeId=${type.id}`, {
      token: s.demo,
      headers: { 'accept-language': lang },
    });
    expect(res.status).toBe(200);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await res.arrayBuffer());
    return workbook;
  };
  const send = async (rows: (string | null)[][], lang: Lang = 'zh-CN', dryRun = false) => {
    const form = importForm(await xlsxFile(rows), { dryRun, mode: 'insert' });
    form.set('traineeTypeId', type.id);
    const res = await s.api.fetch('POST', `${trainees}/import`, {
      token: s.demo,
      form,
      headers: { 'accept-language': lang },
    });
    return { status: res.status, body: (await res.json()) as Json };
  };
  const found = async (name: string) =>
    (await s.call('GET', `${trainees}?traineeTypeId=${type.id}&keyword=${encodeURIComponent(name)}`)).body.data[0];

  it("writes its example in the user's words and offers each coded column's values to pick from", async () => {
    const workbook = await template('zh-CN');
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const example = (sheet.getRow(2).values as string[]).slice(1);
    const at = (label: string) => example[header.indexOf(label)];
    expect(at('性别')).toBe('男');
    expect(at('证件类型')).toBe('居民身份证');
    expect(at('学历')).toBe('本科');
    expect(example).not.toContain('male');
    expect(example).not.toContain('resident_id');
    expect(example).not.toContain('bachelor');
    // a drop-down list (data validation) on the coded columns, its values the labels, kept in a hidden sheet
    const lists = workbook.getWorksheet('lists') as ExcelJS.Worksheet;
    expect(lists.state).toBe('hidden');
    const offered = (label: string) => {
      const column = sheet.getColumn(header.indexOf(label) + 1);
      const rule = sheet.getCell(`${column.letter}3`).dataValidation;
      expect(rule?.type, label).toBe('list');
      const [, from, to] = /\$(\d+):\$[A-Z]+\$(\d+)$/.exec(rule?.formulae?.[0] ?? '') ?? [];
      const values: string[] = [];
      for (let r = Number(from); r <= Number(to); r++) values.push(lists.getCell(r, column.number).text);
      return values;
    };
    expect(offered('性别')).toEqual(['男', '女', '未知']);
    expect(offered('证件类型')).toContain('居民身份证');
    expect(offered('学历')).toContain('本科');
    expect(offered('班次')).toEqual(['白班', '夜班']);
    expect(sheet.getCell(`${sheet.getColumn(header.indexOf('姓名') + 1).letter}3`).dataValidation).toBeFalsy();
    // in English, the English labels
    const english = (await template('en-US')).worksheets[0] as ExcelJS.Worksheet;
    const enHeader = (english.getRow(1).values as string[]).slice(1);
    expect((english.getRow(2).values as string[])[enHeader.indexOf('Gender') + 1]).toBe('Male');
  });

  it('imports the template as it comes', async () => {
    const workbook = await template('zh-CN');
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const header = (sheet.getRow(1).values as string[]).slice(1);
    const example = (sheet.getRow(2).values as string[]).slice(1).map((v) => (v === undefined ? '' : String(v)));
    example[header.indexOf('本科院校')] = '复旦';
    example[header.indexOf('姓名')] = '模板学员';
    const res = await send([header, example]);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ created: 1, failed: [] });
    expect(await found('模板学员')).toMatchObject({ gender: 'male', idType: 'resident_id', education: 'bachelor' });
  });

  it('reads a label in either language, or the code, and keeps the code', async () => {
    const header = [
      'name',
      'gender',
      'idType',
      'education',
      'trainingBase',
      'customFields.shift',
      'customFields.days',
      'customFields.school',
    ];
    const res = await send([
      header,
      ['标签学员', '女', '护照', '本科', '导入基地', '白班', '周一, 周二', '复旦'],
      ['Label trainee', 'Female', 'Passport', "Master's", 'IB1', 'night', 'tue', '交大'],
    ]);
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ created: 2, failed: [] });
    expect(await found('标签学员')).toMatchObject({
      gender: 'female',
      idType: 'passport',
      education: 'bachelor',
      customFields: { shift: 'day', days: ['mon', 'tue'] },
    });
    expect(await found('Label trainee')).toMatchObject({
      gender: 'female',
      idType: 'passport',
      education: 'master',
      customFields: { shift: 'night', days: ['tue'] },
    });
  });

  it("refuses a value that is none of a coded column's, naming its values as people know them", async () => {
    const res = await send(
      [
        ['name', 'gender', 'idType', 'trainingBase', 'customFields.shift', 'customFields.school'],
        ['错码学员', '雄', '身份证', 'IB1', '早班', '复旦'],
      ],
      'zh-CN',
      true,
    );
    const said = Object.fromEntries(res.body.failed.map((f: Json) => [f.column, f.message]));
    expect(said).toEqual({
      性别: '应为以下之一：男 / 女 / 未知',
      证件类型: expect.stringContaining('居民身份证 / 护照'),
      班次: '应为以下之一：白班 / 夜班',
    });
    expect(JSON.stringify(res.body.failed)).not.toMatch(/resident_id|day|night/);
  });

  it('reports every problem of every row in one check, each saying what was wrong', async () => {
    const header = ['name', 'mobile', 'cohortYear', 'trainingBase', 'customFields.school'];
    const rows = [header, ['坏行一', '123', '二〇二六', '没有的基地', ''], ['坏行二', '', '2026', '导入基地', '']];
    const zh = await send(rows, 'zh-CN', true);
    expect(zh.body.failed.map((f: Json) => `${f.row}:${f.column}:${f.message}`)).toEqual([
      '2:手机号:请填写 11 位手机号码',
      '2:年级:应为四位数字的年份，例如 2026',
      '2:本科院校:必填',
      '2:培训基地（名称或编码）:没有该名称或编码的培训基地',
      '3:本科院校:必填',
    ]);
    const en = await send(rows, 'en-US', true);
    expect(en.body.failed.find((f: Json) => f.row === 2 && f.message.includes('year'))?.message).toBe(
      'must be a year, such as 2026',
    );
    expect(await found('坏行一')).toBeUndefined();
  });
});
