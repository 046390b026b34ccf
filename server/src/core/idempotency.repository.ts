import { sql } from 'kysely';
import type { Ref } from '../db/types';
import type { Tx } from './tenancy';

/** The answer a user's `Idempotency-Key` gave (migration 0060); `status` is null while its first request runs. */
interface IdempotencyKeyTable {
  tenant_id: Ref;
  user_id: Ref;
  key: string;
  operation: string;
  request_hash: string;
  status: number | null;
  response_type: string | null;
  response_body: string | null;
  created_at: Date;
}
declare module '../db/types' {
  interface DB {
    idempotency_key: IdempotencyKeyTable;
  }
}

/** Whose key it is. */
export interface KeyOwner {
  tenantId: string;
  userId: string;
  key: string;
}

/** What the key was first sent with: the operation (`POST /api/...`) and the SHA-256 of the request. */
export interface KeyedRequest {
  operation: string;
  requestHash: string;
}

export interface KeptAnswer extends KeyedRequest {
  status: number | null;
  responseType: string | null;
  responseBody: string | null;
}

/**
 * Forgets the tenant's keys older than `expired`, and those whose first request began before `abandoned` and never
 * ended (its instance stopped in the middle): their key may be used again.
 */
export async function purgeKeys(tx: Tx, expired: Date, abandoned: Date): Promise<void> {
  await tx
    .deleteFrom('idempotency_key')
    .where((eb) =>
      eb.or([eb('created_at', '<', expired), eb.and([eb('status', 'is', null), eb('created_at', '<', abandoned)])]),
    )
    .execute();
}

/** Takes the key for a request about to run: false when the key is already there (answered, or running). */
export async function reserveKey(tx: Tx, owner: KeyOwner, request: KeyedRequest, now: Date): Promise<boolean> {
  const made = await tx
    .insertInto('idempotency_key')
    .values({
      tenant_id: owner.tenantId,
      user_id: owner.userId,
      key: owner.key,
      operation: request.operation,
      request_hash: request.requestHash,
      created_at: now,
    })
    .onConflict((oc) => oc.columns(['tenant_id', 'user_id', 'key']).doNothing())
    .returning(sql<number>`1`.as('made'))
    .executeTakeFirst();
  return made !== undefined;
}

/** The key's record; the tenant's rows only (row-level security), so a key is the user's within their tenant. */
export async function findKey(tx: Tx, owner: KeyOwner): Promise<KeptAnswer | undefined> {
  return tx
    .selectFrom('idempotency_key')
    .select([
      'operation',
      'request_hash as requestHash',
      'status',
      'response_type as responseType',
      'response_body as responseBody',
    ])
    .where('user_id', '=', owner.userId)
    .where('key', '=', owner.key)
    .executeTakeFirst();
}

/** Keeps the answer of the key's request, which a repeat of it then gets. */
export async function keepAnswer(
  tx: Tx,
  owner: KeyOwner,
  answer: { status: number; responseType: string | null; responseBody: string | null },
): Promise<void> {
  await tx
    .updateTable('idempotency_key')
    .set({ status: answer.status, response_type: answer.responseType, response_body: answer.responseBody })
    .where('user_id', '=', owner.userId)
    .where('key', '=', owner.key)
    .execute();
}

/** Frees the key of a request that failed: a retry runs anew. */
export async function releaseKey(tx: Tx, owner: KeyOwner): Promise<void> {
  await tx.deleteFrom('idempotency_key').where('user_id', '=', owner.userId).where('key', '=', owner.key).execute();
}
