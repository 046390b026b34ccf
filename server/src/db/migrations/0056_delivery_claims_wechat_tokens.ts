import type { Kysely } from 'kysely';
import { runStatements } from './statements';

/**
 * Delivery at most once per claim, and one WeChat access token per account whichever instance asks.
 *
 * `message.claimed_by` / `claim_expires_at`: a message `sending` belongs to the worker that claimed it until its claim
 * expires (two minutes after it was taken); the sweep queues again only a message whose claim has expired, so a
 * stopped instance costs at most the one message each of its workers had in flight. The partial index holds the
 * messages being sent and nothing else, for the sweep. A message left `sending` before this migration gets a claim
 * that expires two minutes after it was last touched.
 *
 * `wechat_account.access_token_enc` / `access_token_refresh_at`: the account's access token, sealed like its secret
 * (with what it was fetched for: the API address, the app id and a digest of the secret), and when a new one is to be
 * fetched. Kept on the row so that every instance uses the one token and only one fetches the next (under the row's
 * lock): WeChat retires a token when another is made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE message ADD COLUMN claimed_by varchar(100), ADD COLUMN claim_expires_at timestamptz',
    "UPDATE message SET claim_expires_at = updated_at + interval '2 minutes' WHERE status = 'sending'",
    "CREATE INDEX message_claim_idx ON message (claim_expires_at) WHERE status = 'sending'",
    'ALTER TABLE wechat_account ADD COLUMN access_token_enc bytea, ADD COLUMN access_token_refresh_at timestamptz',
  ]);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await runStatements(db, [
    'ALTER TABLE wechat_account DROP COLUMN access_token_enc, DROP COLUMN access_token_refresh_at',
    'DROP INDEX message_claim_idx',
    'ALTER TABLE message DROP COLUMN claimed_by, DROP COLUMN claim_expires_at',
  ]);
}
