import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/** The connections of the database pool (pg's pool on PostgreSQL; PGlite's one connection, lent in turn). */
export interface PoolUse {
  total: number;
  idle: number;
  waiting: number;
}

/** What the metrics read when scraped: the pool and the queues are asked, not counted. */
export interface MetricSources {
  pool: () => PoolUse;
  /** Jobs waiting by queue (pg-boss's count on PostgreSQL, taken each minute; queued and delayed jobs in process). */
  queueDepth: () => Promise<Record<string, number>>;
}

let processRegistry: Registry | undefined;

/**
 * The process's own metrics (memory, CPU, event-loop lag, handles), one set for the process: prom-client's default
 * metrics watch the event loop and the collector from their first call, so they are made once, whatever number of
 * servers the process holds (tests start many).
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * The server's metrics in Prometheus's text format (`/metrics`, served to a bearer of METRICS_TOKEN or on METRICS_PORT;
 * docs/operating.md): requests by route template and status, the database pool, the job queues, imported rows,
 * delivered messages, rows the retention purge removed, and the process. Counters count from the process's start; Prometheus computes the rates.
 */
export function createMetrics() {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({
    name: 'medu_http_requests_total',
    help: 'API requests answered, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'medu_http_request_duration_seconds',
    help: 'Time to answer an API request, by method, route template and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers,
  });
  const jobFailures = new Counter({
    name: 'medu_job_failures_total',
    help: 'Job runs that failed (each try), by queue',
    labelNames: ['queue'] as const,
    registers,
  });
  const importedRows = new Counter({
    name: 'medu_import_rows_total',
    help: 'Spreadsheet rows written by imports, by resource (rate() gives rows per second)',
    labelNames: ['resource'] as const,
    registers,
  });
  const messages = new Counter({
    name: 'medu_messages_total',
    help: 'Messages handed to a provider, by channel and outcome (sent, retrying, failed)',
    labelNames: ['channel', 'status'] as const,
    registers,
  });
  const purged = new Counter({
    name: 'medu_retention_purged_rows_total',
    help: 'Rows the retention purge removed, by table (audit_log, login_log, message, message_batch)',
    labelNames: ['table'] as const,
    registers,
  });
  let sources: MetricSources | undefined;
  const pool = (name: string, help: string, read: (use: PoolUse) => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        if (sources) this.set(read(sources.pool()));
      },
    });
  pool('medu_db_pool_connections', 'Connections of the database pool, in use or idle', (use) => use.total);
  pool('medu_db_pool_idle', 'Idle connections of the database pool', (use) => use.idle);
  pool('medu_db_pool_waiting', 'Queries waiting for a connection of the database pool', (use) => use.waiting);
  new Gauge({
    name: 'medu_job_queue_depth',
    help: 'Jobs waiting to be worked, by queue',
    labelNames: ['queue'] as const,
    registers,
    async collect() {
      if (!sources) return;
      // a database that does not answer leaves the depth out, not the scrape
      const depths = await sources.queueDepth().catch(() => ({}));
      this.reset();
      for (const [queue, depth] of Object.entries(depths)) this.set({ queue }, depth);
    },
  });

  return {
    /** Where the pool's use and the queues' depth are read (server.ts, once the database and the jobs exist). */
    watch(watched: MetricSources) {
      sources = watched;
    },
    request(method: string, route: string, status: number, seconds: number) {
      const labels = { method, route, status: String(status) };
      requests.inc(labels);
      duration.observe(labels, seconds);
    },
    jobFailed(queue: string) {
      jobFailures.inc({ queue });
    },
    rowsImported(resource: string, rows: number) {
      if (rows > 0) importedRows.inc({ resource }, rows);
    },
    messageDelivered(channel: string, status: 'sent' | 'retrying' | 'failed') {
      messages.inc({ channel, status });
    },
    rowsPurged(table: string, rows: number) {
      if (rows > 0) purged.inc({ table }, rows);
    },
    contentType: registry.contentType,
    /** The text of a scrape: the server's metrics, then the process's. */
    async text(): Promise<string> {
      return `${await registry.metrics()}\n${await processMetrics().metrics()}`;
    },
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
