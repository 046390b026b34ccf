import type { Migration } from 'kysely';
import * as m0001 from './0001_core_schema';
import * as m0002 from './0002_tenancy_rls';
import * as m0003 from './0003_audit_log';
import * as m0004 from './0004_system_indexes';
import * as m0005 from './0005_configuration';
import * as m0006 from './0006_session_scopes';
import * as m0007 from './0007_import_jobs';
import * as m0008 from './0008_account_protection';
import * as m0009 from './0009_permission_names';
import * as m0011 from './0011_distribution_keys';
import * as m0012 from './0012_area_names';
import * as m0013 from './0013_list_order_indexes';

/** Ordered and append-only: add a file, import it here; never edit one that has shipped. */
export const migrations: Record<string, Migration> = {
  '0001_core_schema': m0001,
  '0002_tenancy_rls': m0002,
  '0003_audit_log': m0003,
  '0004_system_indexes': m0004,
  '0005_configuration': m0005,
  '0006_session_scopes': m0006,
  '0007_import_jobs': m0007,
  '0008_account_protection': m0008,
  '0009_permission_names': m0009,
  '0011_distribution_keys': m0011,
  '0012_area_names': m0012,
  '0013_list_order_indexes': m0013,
};
