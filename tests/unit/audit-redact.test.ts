import { describe, expect, it } from 'vitest';
import { redact } from '../../server/src/modules/system/audit/audit.service';

describe('the audit trail’s redaction', () => {
  it('drops every key naming a secret, at any depth, leaving the value it was given unchanged', () => {
    const row = {
      name: 'client',
      clientSecret: 's3cret',
      nested: { passwordHash: 'x', keep: 1, list: [{ token: 't', label: 'a' }, { label: 'b' }] },
    };
    expect(redact(row)).toEqual({ name: 'client', nested: { keep: 1, list: [{ label: 'a' }, { label: 'b' }] } });
    expect(row.clientSecret).toBe('s3cret');
    expect(row.nested.list[0]).toEqual({ token: 't', label: 'a' });
    // the fields around a secret keep their order
    expect(Object.keys(redact({ a: 1, token: 2, b: { c: 3, hash: 4 }, d: 5 }) as object)).toEqual(['a', 'b', 'd']);
  });

  it('answers what holds no secret as it is, without copying it (an import audits thousands of rows)', () => {
    const row = { code: 'Q1', children: [{ stem: 'a', options: [{ key: 'A', text: 'x' }] }], at: new Date(0) };
    expect(redact(row)).toBe(row);
    expect(redact([row])).toEqual([row]);
    // a date is a value, not an object of keys
    expect(JSON.stringify(redact({ at: new Date(0), secret: 1 }))).toBe('{"at":"1970-01-01T00:00:00.000Z"}');
  });
});
