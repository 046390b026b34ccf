import { describe, expect, it } from 'vitest';
import { engines, type Json, twoTenants } from './helpers';

/** A few entities, a body each would take, and a text field of it: the limit read from the summary is the server's. */
const cases: { path: string; field: string; body: (n: number) => Json }[] = [
  { path: 'system/role', field: 'name', body: (n) => ({ code: `r${n}`, name: '名'.repeat(n) }) },
  {
    path: 'content/document-base',
    field: 'name',
    body: (n) => ({ code: `b${n}`, name: '库'.repeat(n), visibility: 'tenant' }),
  },
  {
    path: 'message/template',
    field: 'titleTemplate',
    body: (n) => ({
      code: `t${n}`,
      name: '通知',
      channel: 'in_app',
      titleTemplate: '题'.repeat(n),
      contentTemplate: '正文',
    }),
  },
];

describe.each(engines())('the fields’ limits on $name', (engine) => {
  const s = twoTenants(engine);

  it('are public and small: every resource’s text fields with their maximum length', async () => {
    const res = await s.api.fetch('GET', '/api/meta/limits');
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(text.length).toBeLessThan(20_000);
    const limits = JSON.parse(text) as Record<string, Record<string, number>>;
    expect(limits['system/role']).toMatchObject({ code: 50, name: 50, remark: 500 });
    expect(limits['people/trainee']).toMatchObject({ name: 50 });
  });

  it.each(cases)('match what the server takes: $path $field at its limit, refused one past it', async (c) => {
    const limits = (await (await s.api.fetch('GET', '/api/meta/limits')).json()) as Record<string, Json>;
    const max = limits[c.path][c.field] as number;
    expect(max).toBeGreaterThan(0);
    const at = await s.call('POST', `/api/${c.path}`, c.body(max));
    expect(at.status, JSON.stringify(at.body)).toBe(201);
    const past = await s.call('POST', `/api/${c.path}`, c.body(max + 1));
    expect(past.status).toBe(400);
    expect(past.body.fields.map((f: Json) => f.field)).toEqual([c.field]);
  });
});
