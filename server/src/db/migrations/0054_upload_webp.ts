import type { Kysely } from 'kysely';
import { SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

/** The allowed upload extensions before WebP joined them (the seed's default until this migration). */
const OLD = [
  'jpg',
  'jpeg',
  'png',
  'gif',
  'pdf',
  'doc',
  'docx',
  'xls',
  'xlsx',
  'ppt',
  'pptx',
  'mp4',
  'mp3',
  'm4a',
  'wav',
  'zip',
];
/** The same with `webp` after `gif`: the seed's default now (a question's image may be a WebP, printed as a PNG). */
const NEW = [...OLD.slice(0, 4), 'webp', ...OLD.slice(4)];

/** The platform's value and each tenant's own that is still exactly `from` becomes `to`; any other choice stays. */
const replace = (from: string[], to: string[]) => [
  `SET LOCAL ROLE ${SYSTEM_ROLE}`,
  `UPDATE system_setting SET value = '${JSON.stringify(to)}'::jsonb, updated_at = now(), version = version + 1
    WHERE key = 'upload.allowedExtensions' AND value = '${JSON.stringify(from)}'::jsonb`,
  'RESET ROLE',
];

/**
 * WebP among the default upload types (`upload.allowedExtensions`): the seed inserts a setting once and keeps its value
 * after, so the platform's row (the default of every tenant that has not chosen its own) and a tenant's own row still
 * holding the old default exactly take `webp`; a list a tenant or the platform changed is left as it is. Reverted the
 * same way: a list that is exactly the new default loses `webp`.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, replace(OLD, NEW));
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, replace(NEW, OLD));
}
