import type { Kysely } from 'kysely';
import { renamePermissionCodes, runStatements } from './statements';

/**
 * One name per entity, by area: permission codes take the console's route names (`dict:code` → `dictionary:syscode`,
 * `dict:busiitem` → `dictionary:busiitem`, `system:setting` → `system:settings`, ...). A button's locale key carries
 * its code, so both change together; the rows keep their ids, so every role and package keeps what it was granted.
 */
const renames: [string, string][] = [
  ['dict:code', 'dictionary:syscode'],
  ['dict:busiitem', 'dictionary:busiitem'],
  ['dict:industry', 'dictionary:industry'],
  ['dict:errcode', 'dictionary:errcode'],
  ['system:setting', 'system:settings'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    renames.map(([from, to]) => renamePermissionCodes(from, to)),
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(
    db,
    renames.map(([from, to]) => renamePermissionCodes(to, from)),
  );
}
