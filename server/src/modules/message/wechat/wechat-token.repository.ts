import { sql } from 'kysely';
import type { Tx } from '../../../core/tenancy';

/** The access token kept on an account's row (sealed), and whether it is still to be used, by the database's clock. */
export interface KeptToken {
  sealed: Buffer | null;
  fresh: boolean;
}

const kept = [
  'access_token_enc as sealed',
  sql<boolean>`coalesce(access_token_refresh_at > now(), false)`.as('fresh'),
] as const;

/** The account with its kept token, as `open` reads it. */
export const accountWithToken = (tx: Tx, accountId: string) =>
  tx
    .selectFrom('wechat_account')
    .select(['id', 'name', 'app_id', 'app_secret_enc', 'status', ...kept])
    .where('id', '=', accountId)
    .executeTakeFirst();

/**
 * The kept token with the account's row locked until the transaction ends: whoever fetches the next token holds it,
 * and whoever comes meanwhile (another instance) waits, then reads the token it kept.
 */
export const lockedToken = (tx: Tx, accountId: string): Promise<KeptToken | undefined> =>
  tx.selectFrom('wechat_account').select(kept).where('id', '=', accountId).forUpdate().executeTakeFirst();

/** Keeps a token fetched, sealed, to be fetched again in `seconds` (no edit of the account: its version stays). */
export const keepToken = (tx: Tx, accountId: string, sealed: Buffer, seconds: number) =>
  tx
    .updateTable('wechat_account')
    .set({
      access_token_enc: sealed,
      access_token_refresh_at: sql<Date>`now() + make_interval(secs => ${seconds})`,
    })
    .where('id', '=', accountId)
    .execute();
