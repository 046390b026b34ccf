import type { Kysely } from 'kysely';
import { APP_ROLE, SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * An import's batch of questions takes its ids before it writes them (`nextIds`): the codes made of them
 * (`Q00000123`) and the items' parent ids are then written with the rows, instead of a second write of every row.
 */
const sequence = "pg_get_serial_sequence('question', 'id')";

export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `DO $$ BEGIN EXECUTE format('GRANT USAGE ON SEQUENCE %s TO ${APP_ROLE}, ${SYSTEM_ROLE}', ${sequence}); END $$`,
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `DO $$ BEGIN EXECUTE format('REVOKE USAGE ON SEQUENCE %s FROM ${APP_ROLE}, ${SYSTEM_ROLE}', ${sequence}); END $$`,
  ]);
}
