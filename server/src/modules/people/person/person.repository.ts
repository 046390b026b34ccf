import { type RawBuilder, sql } from 'kysely';

/**
 * The ids of the tenant's people whose name holds `part` (any case), as a sub-select of a search's query: the name's
 * grams looked up in their index as the system role, within the transaction's tenant (migrations 0062 and 0069).
 */
export const namesHolding = (part: string): RawBuilder<unknown> => sql`SELECT person_ids_named(${part})`;
