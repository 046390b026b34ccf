import type { Tx } from '../../core/tenancy';
import { sql } from 'kysely';

export async function ping(tx: Tx): Promise<void> {
  await sql`SELECT 1`.execute(tx);
}
