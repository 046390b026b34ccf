import path from 'node:path';
import type { Config } from '../../config';
import type { Outbound } from '../../core/outbound';
import { keyRingOf } from '../../core/seal';
import { createSecretBox } from '../../core/secret-box';
import type { Tenancy } from '../../core/tenancy';
import type { ObjectStore, StorageSettings } from './storage/object-store';
import { objectStore } from './storage/storage';
import {
  enabledMasterRecord,
  enabledS3Endpoints,
  fileCountsOf,
  platformMasterRecord,
  type StorageRecord,
  someTenantOnLocalDisk,
  storageRecordOf,
} from './stores.repository';

export type { StorageRecord };

/** Where a file goes and how long its links live: a configuration, or the built-in local disk (`id` null). */
export interface Target {
  id: string | null;
  provider: 'local' | 's3';
  store: ObjectStore;
  linkTtlSec: number;
}

/** The built-in store's link lifetime, and a configuration's by default. */
const DEFAULT_TTL_SEC = 600;

/**
 * The object stores of the tenants' configurations. A tenant stores new files in its enabled master, else in the
 * platform tenant's, else on the built-in local disk (`<DATA_DIR>/files`, what `npm start` needs nothing for). A
 * file's store is the configuration it was stored through, which may be the platform's (read as the system).
 */
export function createStores(deps: { config: Config; tenancy: Tenancy; outbound: Outbound }) {
  const secrets = createSecretBox(keyRingOf(deps.config), 'storage secret');
  const localRoot = path.resolve(deps.config.dataDir, 'files');
  const builtIn: Target = {
    id: null,
    provider: 'local',
    store: objectStore({ provider: 'local', root: localRoot }),
    linkTtlSec: DEFAULT_TTL_SEC,
  };

  function settingsOf(r: StorageRecord, secret?: string): StorageSettings {
    if (r.provider === 'local') return { provider: 'local', root: localRoot, basePath: r.base_path ?? undefined };
    return {
      provider: 's3',
      endpoint: r.endpoint ?? undefined,
      region: r.region ?? 'us-east-1',
      bucket: r.bucket ?? '',
      accessKeyId: r.access_key_id ?? '',
      secretAccessKey: secret ?? (r.secret_enc ? secrets.open(r.secret_enc) : ''),
      pathStyle: r.path_style,
      basePath: r.base_path ?? undefined,
      outbound: deps.outbound.of(r.owner),
    };
  }

  const targetOf = (r: StorageRecord): Target => ({
    id: String(r.id),
    provider: r.provider,
    store: objectStore(settingsOf(r)),
    linkTtlSec: r.signed_url_ttl_sec,
  });

  const platformMaster = () => deps.tenancy.asSystem(platformMasterRecord);

  return {
    secrets,
    builtIn,
    /** A store for settings not saved yet (the connection test of a form), or a saved record with a new secret. */
    storeOf: (r: StorageRecord, secret?: string) => objectStore(settingsOf(r, secret)),

    /**
     * The origins of every enabled S3 store (every tenant's), for the console's Content-Security-Policy: the browser
     * uploads to them, and shows images, PDFs and videos from them. A store without an endpoint is AWS itself.
     */
    async origins(): Promise<string[]> {
      const endpoints = await deps.tenancy.asSystem(enabledS3Endpoints);
      return endpoints.map((endpoint) => (endpoint ? new URL(endpoint).origin : 'https://*.amazonaws.com'));
    },

    /**
     * How many files each configuration holds, in every tenant: a platform configuration may keep other tenants'
     * files, which its own tenant does not see.
     */
    async fileCounts(ids: readonly string[]): Promise<Map<string, number>> {
      if (ids.length === 0) return new Map();
      return deps.tenancy.asSystem((tx) => fileCountsOf(tx, ids));
    },

    /**
     * Whether some tenant's new files go to the local disk: its enabled master is a local configuration, or it has
     * none and the platform's is local or missing (the built-in disk).
     */
    async localInUse(): Promise<boolean> {
      const platform = await platformMaster();
      return deps.tenancy.asSystem((tx) => someTenantOnLocalDisk(tx, platform?.provider ?? 'local'));
    },

    /** Where the tenant's new files go. Reads in transactions of its own: call it outside any. */
    async master(tenantId: string): Promise<Target> {
      const own = await deps.tenancy.inTenant(tenantId, enabledMasterRecord);
      if (own) return targetOf(own);
      const platform = await platformMaster();
      return platform ? targetOf(platform) : builtIn;
    },

    /**
     * The store a file was put in: its configuration (the tenant's, or the platform's), or the built-in disk. Reads
     * in a transaction of its own (the platform's configuration as the system): call it outside any.
     */
    async of(storageConfigId: string | null): Promise<Target> {
      if (storageConfigId === null) return builtIn;
      const record = await deps.tenancy.asSystem((tx) => storageRecordOf(tx, storageConfigId));
      if (!record) throw new Error(`storage configuration ${storageConfigId} is gone`);
      return targetOf(record);
    },
  };
}

export type Stores = ReturnType<typeof createStores>;
