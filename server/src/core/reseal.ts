import { createIdNumberCipher } from './id-number';
import { lockSealedBatch, SEALED_COLUMNS, type SealedColumn, writeResealed } from './reseal.repository';
import { type KeyRing, SealError } from './seal';
import { createSecretBox } from './secret-box';
import type { Tenancy } from './tenancy';

export interface ResealCount {
  /** `table.column` */
  column: string;
  /** Values looked at. */
  seen: number;
  /** Values re-sealed under the current key. */
  resealed: number;
  /** Values no key of the ring opens (left as they are); the row ids. */
  unreadable: string[];
}

/**
 * Re-seals every value sealed at rest (`SEALED_COLUMNS`) that is not under the ring's current key in the current
 * format, with its blind index: in batches of `batch` rows, each batch its own transaction holding only its rows'
 * locks, so the servers keep serving (they accept both keys meanwhile). Safe to run again: what is current is left.
 */
export async function resealAll(
  tenancy: Pick<Tenancy, 'asSystem'>,
  ring: KeyRing,
  options: { batch?: number; onBatch?: (count: ResealCount) => void } = {},
): Promise<ResealCount[]> {
  const batch = options.batch ?? 500;
  const ids = createIdNumberCipher(ring);
  const reseal = (at: SealedColumn, value: Uint8Array): { value: Buffer; hash?: Buffer } | undefined => {
    if (at.purpose === 'id-number') {
      const opened = ids.inspect(value);
      return opened.current ? undefined : { value: ids.encrypt(opened.text), hash: ids.hash(opened.text) };
    }
    const box = createSecretBox(ring, at.purpose);
    const opened = box.inspect(value);
    return opened.current ? undefined : { value: box.seal(opened.text) };
  };
  const counts: ResealCount[] = [];
  for (const at of SEALED_COLUMNS) {
    const count: ResealCount = { column: `${at.table}.${at.column}`, seen: 0, resealed: 0, unreadable: [] };
    let after = '0';
    for (;;) {
      const rows = await tenancy.asSystem(async (tx) => {
        const found = await lockSealedBatch(tx, at, after, batch);
        for (const row of found) {
          let next: ReturnType<typeof reseal>;
          try {
            next = reseal(at, row.value);
          } catch (err) {
            if (!(err instanceof SealError)) throw err;
            count.unreadable.push(row.id);
            continue;
          }
          if (!next) continue;
          await writeResealed(tx, at, row.id, next.value, next.hash);
          count.resealed++;
        }
        return found;
      });
      count.seen += rows.length;
      options.onBatch?.(count);
      const last = rows.at(-1);
      if (!last || rows.length < batch) break;
      after = last.id;
    }
    counts.push(count);
  }
  return counts;
}
