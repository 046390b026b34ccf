import { describe, expect, it } from 'vitest';
import { dictEnum } from '@/components/resource/dict';
import { filtersOfAddress, toBody, toListQuery, withoutPaging } from '@/components/resource/params';
import type { SysCode } from '@/models/root';
import { filenameOf } from '@/services/resource';
import { changedFields } from '@/utils/auditSummary';

describe('ProTable request arguments → list query', () => {
  it('passes paging and drops empty search fields', () => {
    expect(toListQuery({ current: 2, pageSize: 10, keyword: '', status: undefined, email: null })).toEqual({
      current: '2',
      pageSize: '10',
    });
  });

  it('turns sort into a comma list with - for descending, in column order', () => {
    const query = toListQuery({ current: 1, pageSize: 10 }, { updatedAt: 'descend', userName: 'ascend', email: null });
    expect(query.sort).toBe('-updatedAt,userName');
  });

  it('leaves sort out when nothing is sorted', () => {
    expect(toListQuery({ current: 1, pageSize: 10 }, {})).not.toHaveProperty('sort');
  });

  it('writes in-filters and date ranges as comma lists, trims keywords', () => {
    const query = toListQuery(
      { current: 1, pageSize: 20, keyword: '  zhang ', createdAt: ['2026-01-01', '2026-02-01'] },
      {},
      { status: ['enabled', 'disabled'], roleId: null },
    );
    expect(query).toEqual({
      current: '1',
      pageSize: '20',
      keyword: 'zhang',
      createdAt: '2026-01-01,2026-02-01',
      status: 'enabled,disabled',
    });
    expect(new URLSearchParams(query).toString()).toBe(
      'current=1&pageSize=20&keyword=zhang&createdAt=2026-01-01%2C2026-02-01&status=enabled%2Cdisabled',
    );
  });

  it('keeps an open-ended date range and single values, and export drops paging only', () => {
    const query = toListQuery(
      { current: 3, pageSize: 50, createdAt: ['', '2026-02-01'], status: 'locked' },
      { createdAt: 'ascend' },
    );
    expect(query.createdAt).toBe(',2026-02-01');
    expect(withoutPaging(query)).toEqual({ createdAt: ',2026-02-01', status: 'locked', sort: 'createdAt' });
  });
});

describe('dictEnum', () => {
  const codes: SysCode[] = [
    { type: 'admin_user_status', value: 'locked', label: '锁定', labelEn: 'Locked', color: 'error', sort: 2 },
    { type: 'admin_user_status', value: 'enabled', label: '启用', labelEn: 'Enabled', color: 'success', sort: 0 },
    { type: 'admin_user_status', value: 'disabled', label: '停用', labelEn: null, color: 'default', sort: 1 },
    { type: 'gender', value: 'male', label: '男', labelEn: 'Male', color: 'blue', sort: 0 },
  ];

  it('gives the type items in order with zh-CN labels and badge status', () => {
    const valueEnum = dictEnum('admin_user_status', codes, 'zh-CN');
    expect([...valueEnum.keys()]).toEqual(['enabled', 'disabled', 'locked']);
    expect(valueEnum.get('enabled')).toEqual({ text: '启用', status: 'Success', color: 'success' });
    expect(valueEnum.get('locked')).toEqual({ text: '锁定', status: 'Error', color: 'error' });
  });

  it('uses English labels in en-US, falling back to the Chinese label', () => {
    const valueEnum = dictEnum('admin_user_status', codes, 'en-US');
    expect(valueEnum.get('enabled')?.text).toBe('Enabled');
    expect(valueEnum.get('disabled')?.text).toBe('停用');
  });

  it('keeps a plain colour as colour without a badge status', () => {
    expect(dictEnum('gender', codes, 'en-US').get('male')).toEqual({ text: 'Male', color: 'blue' });
    expect(dictEnum('no_such_type', codes, 'zh-CN').size).toBe(0);
  });
});

describe('form body', () => {
  const fields = ['displayName', 'mobile', 'email'];

  it('sends only the mode fields, leaving empty inputs out on create', () => {
    expect(
      toBody({ displayName: ' Zhang ', mobile: '', email: undefined, status: 'enabled' }, fields, 'create'),
    ).toEqual({
      displayName: 'Zhang',
    });
  });

  it('clears emptied fields and carries the version on update', () => {
    expect(toBody({ displayName: 'Zhang', mobile: '', email: 'z@example.com', id: '7' }, fields, 'update', 4)).toEqual({
      displayName: 'Zhang',
      mobile: null,
      email: 'z@example.com',
      version: 4,
    });
  });
});

describe('helpers', () => {
  it('reads the download name from Content-Disposition', () => {
    expect(filenameOf('attachment; filename="admin-users.xlsx"')).toBe('admin-users.xlsx');
    expect(filenameOf("attachment; filename*=UTF-8''%E7%AE%A1%E7%90%86%E5%91%98.xlsx")).toBe('管理员.xlsx');
    expect(filenameOf(null)).toBeUndefined();
  });

  it('names the fields an audit row changed', () => {
    expect(
      changedFields({ displayName: 'a', email: null, version: 1 }, { displayName: 'b', email: null, version: 2 }),
    ).toEqual(['displayName']);
    expect(changedFields(null, { userName: 'x' })).toEqual(['userName']);
  });
});

describe('the filters of a list address', () => {
  it("takes the search form's fields from the query, a date range as its two ends, and nothing else", () => {
    const address =
      '?status=pending_review&startAt=2026-12-06T16:00:00.000Z,2026-12-07T16:00:00.000Z&current=3&x=1&name=';
    expect(filtersOfAddress(address, ['status', 'startAt', 'name'], ['startAt'])).toEqual({
      status: 'pending_review',
      startAt: ['2026-12-06T16:00:00.000Z', '2026-12-07T16:00:00.000Z'],
    });
    expect(toListQuery(filtersOfAddress(address, ['startAt'], ['startAt']))).toEqual({
      startAt: '2026-12-06T16:00:00.000Z,2026-12-07T16:00:00.000Z',
    });
    expect(filtersOfAddress('', ['status'])).toEqual({});
  });
});
