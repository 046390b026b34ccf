import type { Migration } from 'kysely';
import * as m0001 from './0001_core_schema';
import * as m0002 from './0002_tenancy_rls';

/** Ordered and append-only: add a file, import it here; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001_core_schema': m0001,
  '0002_tenancy_rls': m0002,
};
