import type { AddressInfo } from 'node:net';
import parsePrometheusTextFormat, { type MetricFamily } from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForMetrics } from '../../server/src/core/metrics-http';
import { roleSheet } from '../support/role-sheet';
import { engines, importForm, startApi, type TestApi } from './helpers';

const TOKEN = 'metrics-token-of-the-tests-0123456789';

/** The families of a scrape, by name, as a parser of Prometheus's text format written by others reads them. */
const familiesOf = (text: string) => new Map(parsePrometheusTextFormat(text).map((f) => [f.name, f]));

/** The value of the sample of `family` whose labels include `labels` (0 when there is none yet). */
const sample = (family: MetricFamily | undefined, labels: Record<string, string>) => {
  const found = family?.metrics.find((m) => Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));
  return Number(found?.value ?? 0);
};

describe.each(engines())('readiness probe on $name', (engine) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi(engine, { demo: false });
  });
  afterAll(() => api?.close());

  const ready = () => api.call('GET', '/api/ready');

  it('answers 503 until start-up has started the job queues, then 200', async () => {
    // createServer has returned (database open, migrated); main.ts starts the queues next
    expect(await ready()).toMatchObject({ status: 503, body: { status: 'unavailable', failed: 'jobs' } });
    await api.server.services.jobs.start();
    expect(await ready()).toMatchObject({ status: 200, body: { status: 'ready', failed: null } });
    // liveness is another question: it answered all along
    expect((await api.call('GET', '/api/health')).status).toBe(200);
  });

  it('answers 503 while a migration this version knows is not applied', async () => {
    const latest = await api.db
      .selectFrom('kysely_migration' as never)
      .select(['name' as never, 'timestamp' as never])
      .orderBy('name' as never, 'desc')
      .limit(1)
      .executeTakeFirstOrThrow();
    await api.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', (latest as { name: string }).name as never)
      .execute();
    try {
      expect(await ready()).toMatchObject({ status: 503, body: { failed: 'migrations' } });
    } finally {
      await api.db
        .insertInto('kysely_migration' as never)
        .values(latest as never)
        .execute();
    }
    expect((await ready()).status).toBe(200);
  });

  it('answers 404 to /metrics on the server port when no token is configured', async () => {
    expect((await api.fetch('GET', '/metrics')).status).toBe(404);
    expect((await api.fetch('GET', '/metrics', { token: TOKEN })).status).toBe(404);
  });

  it('answers 503 from the moment the server is told to stop', async () => {
    expect((await ready()).status).toBe(200);
    const closing = api.server.close();
    expect(await ready()).toMatchObject({ status: 503, body: { status: 'unavailable', failed: 'shutdown' } });
    await closing;
  });
});

describe.each(engines())('metrics on $name', (engine) => {
  let api: TestApi;

  beforeAll(async () => {
    api = await startApi(engine, { config: { metricsToken: TOKEN } });
    await api.server.services.jobs.start();
  });
  afterAll(() => api?.close());

  const scrape = async (token = TOKEN) => {
    const res = await api.fetch('GET', '/metrics', { token });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return familiesOf(await res.text());
  };

  it('refuses /metrics without the token or with another one (401)', async () => {
    expect((await api.fetch('GET', '/metrics')).status).toBe(401);
    expect((await api.fetch('GET', '/metrics', { token: `${TOKEN}x` })).status).toBe(401);
  });

  it('serves every family to the token: requests, pool, queues, imports, messages, the process', async () => {
    const families = await scrape();
    const expected: Record<string, MetricFamily['type']> = {
      medu_http_requests_total: 'COUNTER',
      medu_http_request_duration_seconds: 'HISTOGRAM',
      medu_db_pool_connections: 'GAUGE',
      medu_db_pool_idle: 'GAUGE',
      medu_db_pool_waiting: 'GAUGE',
      medu_job_queue_depth: 'GAUGE',
      medu_job_failures_total: 'COUNTER',
      medu_import_rows_total: 'COUNTER',
      medu_messages_total: 'COUNTER',
      medu_retention_purged_rows_total: 'COUNTER',
      process_resident_memory_bytes: 'GAUGE',
      nodejs_heap_size_used_bytes: 'GAUGE',
      nodejs_eventloop_lag_seconds: 'GAUGE',
    };
    for (const [name, type] of Object.entries(expected)) expect(families.get(name)?.type, name).toBe(type);
    expect(sample(families.get('medu_db_pool_connections'), {})).toBeGreaterThanOrEqual(1);
    // every declared queue, with its depth
    const queues = families.get('medu_job_queue_depth')?.metrics.map((m) => m.labels?.queue);
    expect(queues).toEqual(expect.arrayContaining(['message.deliver', 'file.remove-orphans']));
  });

  it('counts a request under its route template and status, never under the path with its id', async () => {
    const labels = { method: 'GET', route: '/api/assess/paper/:id', status: '401' };
    const before = sample((await scrape()).get('medu_http_requests_total'), labels);
    expect((await api.call('GET', '/api/assess/paper/123456')).status).toBe(401);
    const families = await scrape();
    expect(sample(families.get('medu_http_requests_total'), labels)).toBe(before + 1);
    // the parser folds a labelled histogram's series into one set of buckets: that it has them is what it tells
    expect(families.get('medu_http_request_duration_seconds')?.metrics[0]?.buckets).toHaveProperty('+Inf');
    const routes = families.get('medu_http_requests_total')?.metrics.map((m) => m.labels?.route) ?? [];
    expect(routes.filter((route) => route?.includes('123456'))).toEqual([]);
    // a path no route answers is one series, whatever was asked
    await api.call('GET', '/api/no/such/thing/42');
    const unmatched = (await scrape()).get('medu_http_requests_total');
    expect(sample(unmatched, { route: 'unmatched', status: '404' })).toBeGreaterThanOrEqual(1);
  });

  it('counts the rows an import wrote', async () => {
    const admin = (await api.tokens('demo', 'admin', 'admin123')).access;
    const rowsOf = async () =>
      (await scrape()).get('medu_import_rows_total')?.metrics.reduce((sum, m) => sum + Number(m.value), 0) ?? 0;
    const before = await rowsOf();
    const file = new File([new Uint8Array(await roleSheet(3, 'metrics'))], 'roles.xlsx');
    const res = await api.fetch('POST', '/api/system/role/import', { token: admin, form: importForm(file) });
    expect(res.status).toBe(200);
    expect(await rowsOf()).toBe(before + 3);
  });

  it('serves only /metrics on METRICS_PORT, to anyone when no token is set and to its bearer when one is', async () => {
    const open = listenForMetrics(api.server.services.metrics, undefined, 0);
    const guarded = listenForMetrics(api.server.services.metrics, TOKEN, 0);
    try {
      await Promise.all([open, guarded].map((s) => new Promise((resolve) => s.once('listening', resolve))));
      const url = (s: typeof open, path: string) => `http://127.0.0.1:${(s.address() as AddressInfo).port}${path}`;
      const res = await fetch(url(open, '/metrics'));
      expect(res.status).toBe(200);
      expect(familiesOf(await res.text()).get('medu_http_requests_total')?.type).toBe('COUNTER');
      expect((await fetch(url(open, '/api/health'))).status).toBe(404);
      expect((await fetch(url(guarded, '/metrics'))).status).toBe(401);
      const authorized = await fetch(url(guarded, '/metrics'), { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(authorized.status).toBe(200);
    } finally {
      await Promise.all([open, guarded].map((s) => new Promise((resolve) => s.close(resolve))));
    }
  });
});
