import { sql } from 'kysely';
import type { Tx } from '../../core/tenancy';

export async function ping(tx: Tx): Promise<void> {
  await sql`SELECT 1`.execute(tx);
}
