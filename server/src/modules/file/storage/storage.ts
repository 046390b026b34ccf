import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { localStore } from './local';
import type { ObjectStore, StorageSettings } from './object-store';
import { s3Store } from './s3';

/** The store its settings name: the local disk or an S3-compatible bucket, each with the connection test. */
export function objectStore(settings: StorageSettings): ObjectStore {
  const store = settings.provider === 'local' ? localStore(settings.root, settings.basePath) : s3Store(settings);
  return { ...store, probe: () => probe(store) };
}

const PROBE_BYTES = Buffer.from('medu storage probe');

async function probe(store: Omit<ObjectStore, 'probe'>): Promise<void> {
  const key = `.probe/${randomUUID()}`;
  await step('put', () => store.put(key, Readable.from([PROBE_BYTES]), 'text/plain'));
  await step('get', async () => {
    const body = await store.get(key);
    if (!body) throw new Error('the object just written is missing');
    if (!Buffer.concat(await body.toArray()).equals(PROBE_BYTES)) throw new Error('read back other bytes than written');
  });
  await step('delete', () => store.delete(key));
}

async function step(name: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    throw new Error(`${name}: ${err instanceof Error ? err.message || err.name : String(err)}`, { cause: err });
  }
}
