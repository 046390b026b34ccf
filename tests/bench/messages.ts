/**
 * Messaging at scale (issue 11): RECIPIENTS generated console users of one tenant, members of one role; an in-app
 * template sent to the role as a batch through the API, timed from the send to the batch completed (its audience
 * expanded into messages and delivered by the job queue: pg-boss on PostgreSQL, in process on the embedded database);
 * then the inbox's unread count of one user (who has UNREAD unread messages among them all), p95 of the service's
 * count and of the HTTP call.
 */

import { sql } from 'kysely';
import type { DatabaseOptions } from '../../server/src/db/database';
import { withBenchApi } from './bench-api';
import { p95 } from './measure';

const RECIPIENTS = Number(process.env.BENCH_MESSAGES ?? 100_000);
const UNREAD = 1_000;
const CALLS = 200;
const BUDGET = { batchSeconds: 60, unreadMs: 5 };

export function benchMessages(label: string, database: DatabaseOptions) {
  return withBenchApi(database, async ({ server, call }) => {
    const role = await call('POST', '/system/role', { code: 'bench', name: '基准角色' });
    const me = await call('GET', '/auth/me');
    const started = performance.now();
    const tenant = String(
      (await server.db.selectFrom('tenant').select('id').where('code', '=', 'demo').executeTakeFirstOrThrow()).id,
    );
    await server.services.tenancy.asSystem(async (tx) => {
      const hash = (await tx.selectFrom('admin_user').select('password_hash').limit(1).executeTakeFirstOrThrow())
        .password_hash;
      await sql`INSERT INTO admin_user (tenant_id, username, password_hash, display_name, email)
      SELECT ${tenant}::bigint, 'bench' || g, ${hash}, '用户' || g, 'bench' || g || '@example.com'
      FROM generate_series(1, ${RECIPIENTS}) g`.execute(tx);
      await sql`INSERT INTO user_role (tenant_id, user_id, role_id)
      SELECT ${tenant}::bigint, id, ${role.id}::bigint FROM admin_user WHERE username LIKE 'bench%'`.execute(tx);
      // the user whose inbox is counted: many messages, some of them unread
      await sql`INSERT INTO message (tenant_id, channel, recipient_type, recipient_id, recipient_name, title, content,
        status, sent_at, read_at)
      SELECT ${tenant}::bigint, 'in_app', 'admin_user', ${me.userId}::bigint, '管理员', '旧消息 ' || g, '内容',
        CASE WHEN g <= ${UNREAD} THEN 'delivered' ELSE 'read' END, now(), CASE WHEN g > ${UNREAD} THEN now() END
      FROM generate_series(1, ${UNREAD * 5}) g`.execute(tx);
    });
    await sql`ANALYZE`.execute(server.db);
    console.log(
      `${label}: ${RECIPIENTS.toLocaleString('en')} users generated in ${((performance.now() - started) / 1000).toFixed(1)} s`,
    );

    const template = await call('POST', '/message/template', {
      code: 'bench',
      name: '基准通知',
      channel: 'in_app',
      titleTemplate: '{subject}',
      contentTemplate: '{name}，您好：{body}',
    });
    const sendStarted = performance.now();
    const batch = await call('POST', '/message/batch', {
      name: '基准批次',
      templateId: template.id,
      audience: { roleIds: [role.id] },
      params: { subject: '基准', body: '这是一条基准消息' },
    });
    let done = batch;
    while (done.status !== 'completed') {
      await new Promise((r) => setTimeout(r, 200));
      done = await call('GET', `/message/batch/${batch.id}`);
      if (performance.now() - sendStarted > 600_000) throw new Error('the batch did not complete in 10 minutes');
    }
    const seconds = (performance.now() - sendStarted) / 1000;
    const within = (figure: number, budget: number) => (figure <= budget ? 'within' : 'OVER');
    console.log(
      `${label}: a batch of ${done.total.toLocaleString('en')} in-app messages sent and delivered in ${seconds.toFixed(1)} s (budget ≤ ${BUDGET.batchSeconds} s: ${within(seconds, BUDGET.batchSeconds)})`,
    );

    const tenantId = tenant;
    const counted: number[] = [];
    let count = 0;
    for (let i = 0; i < CALLS; i++) {
      const t0 = performance.now();
      count = await server.services.messages.inbox.unreadCount(tenantId, me.userId);
      counted.push(performance.now() - t0);
    }
    const overHttp: number[] = [];
    for (let i = 0; i < CALLS; i++) {
      const t0 = performance.now();
      await call('GET', '/message/inbox/unread-count');
      overHttp.push(performance.now() - t0);
    }
    // the count statement itself, as the database runs it (the rest of the service's time is its transaction's trips)
    const plan = await server.services.tenancy.inTenant(tenant, async (tx) => {
      const { rows } = await sql<{ 'QUERY PLAN': [{ 'Execution Time': number }] }>`EXPLAIN (ANALYZE, FORMAT JSON)
      SELECT count(*) FROM message WHERE recipient_type = 'admin_user' AND channel = 'in_app'
        AND recipient_id = ${me.userId}::bigint AND status = 'delivered'`.execute(tx);
      return rows[0]?.['QUERY PLAN'][0]['Execution Time'] ?? Number.NaN;
    });
    const total = await server.services.tenancy.asSystem(async (tx) =>
      Number((await sql<{ n: string }>`SELECT count(*) AS n FROM message`.execute(tx)).rows[0]?.n),
    );
    console.log(
      `${label}: the inbox's unread count (${count} unread of ${total.toLocaleString('en')} messages) p95 ${p95(counted).toFixed(2)} ms in the service (budget ≤ ${BUDGET.unreadMs} ms: ${within(p95(counted), BUDGET.unreadMs)}; the statement ${plan.toFixed(2)} ms in the database), ${p95(overHttp).toFixed(2)} ms over HTTP`,
    );
  });
}
