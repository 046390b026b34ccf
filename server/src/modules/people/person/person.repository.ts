import { sql } from 'kysely';
import { currentTenant, readIndexed, type Tx } from '../../../core/tenancy';

/** The ids of the tenant's people whose name holds `part` (any case), through the name's grams (migration 0062). */
export async function namesHolding(tx: Tx, part: string): Promise<string[]> {
  const { rows } = await readIndexed(tx, () =>
    sql<{ id: string }>`SELECT p.id::text AS id FROM person p WHERE p.tenant_id = ${currentTenant}
      AND person_name_grams(p.name) @> person_name_grams(${part}) AND strpos(lower(p.name), lower(${part})) > 0`.execute(
      tx,
    ),
  );
  return rows.map((r) => r.id);
}
