import type { Kysely } from 'kysely';
import { SYSTEM_ROLE } from './0002_tenancy_rls';
import { runStatements } from './statements';

/**
 * A secret setting (`value_type = 'secret'`: the SMTP password, the SMS gateway key, the captcha secret) is kept
 * sealed under the master key in `value_enc` (core/seal.ts, purpose `setting secret`), its `value` an empty string.
 * A migration has no key: the server seals the values still in clear as it starts, after the migrations
 * (settings.service.ts, `sealStoredSecrets`).
 *
 * Reverted, a sealed value waits in `value` as `{"sealed": "<base64>"}`: a release before this one reads it as no value
 * (it is not text) and shows it as set, and this migration applied again puts it back in `value_enc`. Nothing is left
 * in clear either way.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE system_setting ADD COLUMN value_enc bytea',
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `UPDATE system_setting SET value_enc = decode(value->>'sealed', 'base64'), value = '""'::jsonb
      WHERE value_type = 'secret' AND jsonb_typeof(value) = 'object' AND value->>'sealed' IS NOT NULL`,
    'RESET ROLE',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    `SET LOCAL ROLE ${SYSTEM_ROLE}`,
    `UPDATE system_setting SET value = jsonb_build_object('sealed', encode(value_enc, 'base64'))
      WHERE value_enc IS NOT NULL`,
    'RESET ROLE',
    'ALTER TABLE system_setting DROP COLUMN value_enc',
  ]);
}
