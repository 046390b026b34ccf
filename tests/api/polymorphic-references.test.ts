import { OpenAPIHono, z } from '@hono/zod-openapi';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../server/src/core/context';
import { json } from '../../server/src/core/openapi';
import { defineRoute } from '../../server/src/core/route';
import { engines, type Json, secondTenant, startApi, type TestApi } from './helpers';

/**
 * The polymorphic references, stated here apart from migration 0068: the table, the column of the kind, the column of
 * the id, and each kind with the table its id names; null for a kind whose rows the platform shares with every tenant
 * (a message about a platform template), which the database leaves to the writer: the platform's rows are another
 * tenant's, which a trigger does not read under Citus (migration 0070).
 */
const authors = { trainee: 'trainee', doctor: 'doctor', staff: 'staff', admin: 'admin_user' };
const reported = { post: 'post', reply: 'post_reply', user: 'admin_user' };
const references: [table: string, kind: string, id: string, kinds: Record<string, string | null>][] = [
  [
    'qualification',
    'owner_type',
    'owner_id',
    { expert: 'expert', doctor: 'doctor', staff: 'staff', trainee: 'trainee' },
  ],
  [
    'document_base_grant',
    'subject_type',
    'subject_id',
    { role: 'role', org: 'organization', trainee_type: 'trainee_type', admin_user: 'admin_user' },
  ],
  ['board_moderator', 'subject_type', 'subject_id', { admin_user: 'admin_user', doctor: 'doctor' }],
  ['post', 'author_type', 'author_id', authors],
  ['post_reply', 'author_type', 'author_id', authors],
  ['community_mute', 'author_type', 'author_id', authors],
  ['report_case', 'target_type', 'target_id', reported],
  ['report', 'target_type', 'target_id', reported],
  ['report', 'reporter_type', 'reporter_id', authors],
  ['follower', 'bound_person_type', 'bound_person_id', { trainee: 'trainee', staff: 'staff', doctor: 'doctor' }],
  ['message', 'recipient_type', 'recipient_id', { admin_user: 'admin_user', trainee: 'trainee', person: 'person' }],
  [
    'message',
    'biz_ref_type',
    'biz_ref_id',
    {
      course: 'course',
      message_template: null,
      qualification: 'qualification',
      report_case: 'report_case',
      teaching_activity: 'teaching_activity',
      trainee: 'trainee',
    },
  ],
  [
    'file',
    'biz_type',
    'biz_id',
    {
      'course-item.material': 'course_item',
      'course.cover': 'course',
      'document.file': 'document',
      'post.attachment': 'post',
      'post_reply.attachment': 'post_reply',
      'qualification.attachment': 'qualification',
      'question.media': 'question',
      'report.evidence': 'report',
      'teaching-activity.material': 'teaching_activity',
      'teaching-activity.photo': 'teaching_activity',
    },
  ],
];

/**
 * Column pairs named like a polymorphic reference (`x_type` beside `x_id`) that are none: the audit log records what
 * happened to a record, removed ones and the platform's included; an OAuth client's id is its public name, and its
 * type whether it keeps a secret.
 */
const notReferences = ['audit_log.resource_id', 'oauth_client.client_id'];

/** An id no table holds. */
const NOWHERE = '900000000000';

/** Thrown to roll a transaction back once its statement has run. */
class Undo extends Error {}

describe.each(engines())('polymorphic references on $name (migration 0068)', (engine) => {
  let api: TestApi;
  const tenant = { demo: '', other: '' };
  /** A row of the demo tenant's in each table that has one after the demo content. */
  const rowOf = new Map<string, string>();

  beforeAll(async () => {
    api = await startApi(engine, { demoContent: true });
    await api.addTenant(secondTenant);
    probes();
    for (const code of ['demo', 'demo2'] as const) {
      const row = await api.db.selectFrom('tenant').select('id').where('code', '=', code).executeTakeFirstOrThrow();
      tenant[code === 'demo' ? 'demo' : 'other'] = String(row.id);
    }
    const targets = new Set(
      references.flatMap(([, , , kinds]) => Object.values(kinds).filter((t): t is string => t !== null)),
    );
    for (const target of targets) {
      const found = await sql<{ id: string }>`SELECT id::text AS id FROM ${sql.table(target)}
        WHERE tenant_id = ${tenant.demo} ORDER BY id LIMIT 1`.execute(api.db);
      if (found.rows[0]) rowOf.set(target, found.rows[0].id);
    }
  }, 120_000);
  afterAll(() => api?.close());

  /**
   * Two routes that write a reference with no check of their own (the request's check does not see it: a handler's
   * own id, a race), so that the database is the last word: a message's recipient and a role's scope.
   */
  function probes() {
    const probe = (path: string, write: (id: string) => ReturnType<typeof sql>) => {
      const route = defineRoute({
        method: 'post',
        path,
        permission: 'system:role:update',
        request: { body: { required: true, content: json(z.object({ id: z.string() })) } },
        responses: { 200: { description: 'Written', content: json(z.object({ ok: z.boolean() })) } },
      });
      api.server.app.route(
        '/api',
        new OpenAPIHono<AppEnv>().openapi(route, async (c) => {
          await api.tenancy.inTenant(tenant.demo, (tx) => write(c.req.valid('json').id).execute(tx));
          return c.json({ ok: true }, 200);
        }),
      );
    };
    probe(
      '/probe/message',
      (id) => sql`INSERT INTO message (tenant_id, channel, recipient_type, recipient_id, content, status)
        VALUES (${tenant.demo}, 'in_app', 'admin_user', ${id}, 'hello', 'delivered')`,
    );
    probe(
      '/probe/scope',
      (id) => sql`UPDATE role SET data_scope_org_ids = ARRAY[${id}]::bigint[] WHERE tenant_id = ${tenant.demo}`,
    );
  }

  /** The error code of inserting a row of `tenantId` into `table` with only its kind and id, rolled back. */
  const insertCode = async (table: string, kind: string, idColumn: string, tenantId: string, k: string, id: string) => {
    try {
      await api.db.transaction().execute(async (tx) => {
        await sql`INSERT INTO ${sql.table(table)} (tenant_id, ${sql.ref(kind)}, ${sql.ref(idColumn)})
          VALUES (${tenantId}, ${k}, ${id})`.execute(tx);
        throw new Undo();
      });
    } catch (err) {
      return err instanceof Undo ? 'inserted' : String((err as { code?: unknown }).code);
    }
    return 'inserted';
  };

  it('refuses, in every polymorphic reference, an id of no row of the tenant in the table its kind names', async () => {
    let crossTenant = 0;
    for (const [table, kind, id, kinds] of references) {
      for (const [k, target] of Object.entries(kinds)) {
        const at = `${table}.${id} (${k})`;
        if (target === null) {
          // refused by no reference (the row goes on to its other constraints)
          expect(await insertCode(table, kind, id, tenant.demo, k, NOWHERE), at).not.toBe('23503');
          continue;
        }
        const own = rowOf.get(target);
        // an id that no table holds, and the demo tenant's row written into the second tenant's row
        expect(await insertCode(table, kind, id, tenant.demo, k, NOWHERE), at).toBe('23503');
        if (!own) continue;
        expect(await insertCode(table, kind, id, tenant.other, k, own), at).toBe('23503');
        crossTenant += 1;
        // the tenant's own row passes the reference (and the row goes on to its other constraints)
        expect(await insertCode(table, kind, id, tenant.demo, k, own), at).not.toBe('23503');
      }
      // a kind the reference does not know names no table: refused with an id
      expect(await insertCode(table, kind, id, tenant.demo, 'unknown', NOWHERE), `${table}.${kind}`).toMatch(
        /^(23503|23514)$/,
      );
    }
    // the demo content holds rows of most targets: the refusal across tenants is seen for most kinds
    expect(crossTenant).toBeGreaterThanOrEqual(20);
  });

  it('refuses an update that points a reference at another tenant’s row, and lets other updates by', async () => {
    const user = rowOf.get('admin_user') as string;
    const message = await sql<{ id: string }>`INSERT INTO message (tenant_id, channel, recipient_type, recipient_id,
        content, status) VALUES (${tenant.demo}, 'in_app', 'admin_user', ${user}, 'hello', 'delivered')
      RETURNING id::text AS id`.execute(api.db);
    const id = message.rows[0]?.id as string;
    await expect(
      sql`UPDATE message SET recipient_id = ${NOWHERE} WHERE id = ${id}`.execute(api.db),
    ).rejects.toMatchObject({ code: '23503' });
    // a row whose reference is left as it is (even rewritten to the same value) pays nothing and is refused nothing
    await sql`UPDATE message SET status = 'read', recipient_id = recipient_id WHERE id = ${id}`.execute(api.db);
    await sql`DELETE FROM message WHERE id = ${id}`.execute(api.db);
  });

  it('knows every pair of columns named like a polymorphic reference', async () => {
    const columns = await sql<{ table_name: string; column_name: string }>`SELECT table_name, column_name
      FROM information_schema.columns WHERE table_schema = current_schema()`.execute(api.db);
    const names = new Set(columns.rows.map((c) => `${c.table_name}.${c.column_name}`));
    const pairs = [...names]
      .filter((name) => name.endsWith('_type') && names.has(name.replace(/_type$/, '_id')))
      .map((name) => name.replace(/_type$/, '_id'))
      .sort();
    const known = [...references.map(([table, , id]) => `${table}.${id}`), ...notReferences].sort();
    expect(pairs).toEqual(known);
  });

  it('answers a reference the database refuses (a polymorphic one, or a list) with 400 naming the field', async () => {
    const token = (await api.tokens('demo', 'admin', 'admin123')).access;
    const send = (path: string, id: string) =>
      api.call('POST', path, { token, body: { id }, headers: { 'accept-language': 'en-US' } });
    const refused = await send('/api/probe/message', await api.userId('demo2', 'admin'));
    expect(refused.status, JSON.stringify(refused.body)).toBe(400);
    expect(refused.body).toMatchObject({ code: 'common.validation', fields: [{ field: 'recipientId' }] });
    expect((refused.body as Json).fields[0].message).toMatch(/tenant/);
    // migration 0061's lists name theirs too
    const list = await send('/api/probe/scope', NOWHERE);
    expect(list.status, JSON.stringify(list.body)).toBe(400);
    expect(list.body).toMatchObject({ code: 'common.validation', fields: [{ field: 'dataScopeOrgIds' }] });
    // the tenant's own row is written
    expect((await send('/api/probe/message', await api.userId('demo', 'admin'))).status).toBe(200);
  });
});
