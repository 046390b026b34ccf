import type { Logger } from 'pino';
import type { Services } from './core/context';

/** Work that runs by the clock, on the job queue (core/jobs.ts): at start-up (a stopped server catches up) and then on schedule. */
const SCHEDULED = {
  /** The daily expiry of qualifications and of experts' terms: hourly, each run marks what ended before its day. */
  'people.expire': '5 * * * *',
  /** Files unclaimed or never confirmed for a day. */
  'file.remove-orphans': '35 * * * *',
  /** Documents whose scheduled publication has come. */
  'document.publish-due': '* * * * *',
  /** Teaching activities about to start: their participants reminded, once each. */
  'activity.remind': '15 * * * *',
  /** Teaching activities under way from their start, completed past their end and sign-in window. */
  'activity.advance': '* * * * *',
  /** Audit and sign-in log rows and sent messages older than their retention (`retention.*`): nightly, off-peak. */
  'retention.purge': '40 3 * * *',
} as const;

export function declareScheduledWork(services: Services, logger?: Logger): void {
  const { jobs, config } = services;
  const work: Record<keyof typeof SCHEDULED, () => Promise<void>> = {
    'people.expire': async () => {
      const now = config.now();
      const qualifications = await services.qualifications.expire(now);
      const experts = await services.experts.expire(now);
      if (qualifications || experts) logger?.info({ qualifications, experts }, 'marked as expired');
    },
    'file.remove-orphans': async () => {
      const orphans = await services.files.removeOrphans(config.now());
      if (orphans) logger?.info({ orphans }, 'orphaned files removed');
    },
    'document.publish-due': async () => {
      const published = await services.documents.publishDue(config.now());
      if (published) logger?.info({ published }, 'scheduled documents published');
    },
    'activity.remind': async () => {
      const reminded = await services.activities.remind(config.now());
      if (reminded) logger?.info({ reminded }, 'teaching activity reminders written');
    },
    'activity.advance': async () => {
      const moved = await services.activities.advance(config.now());
      if (moved) logger?.info({ moved }, 'teaching activities moved on by the clock');
    },
    'retention.purge': async () => {
      for (const { table, before, removed, batches, slowestMs } of await services.retention.purge(config.now()))
        if (removed) logger?.info({ table, before, removed, batches, slowestMs }, 'rows past their retention removed');
    },
  };
  for (const [name, cron] of Object.entries(SCHEDULED) as [keyof typeof SCHEDULED, string][]) {
    jobs.define(name, work[name], { retryLimit: 0 });
    jobs.schedule(name, cron);
  }
}

/** Starts the queues and runs each scheduled work once now. */
export async function startScheduledWork(services: Services): Promise<void> {
  await services.jobs.start();
  for (const name of Object.keys(SCHEDULED)) await services.jobs.send(name, {});
}
