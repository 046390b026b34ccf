import type { Tx } from './tenancy';

const memos = new WeakMap<Tx, Map<string, Promise<unknown>>>();

/**
 * `load`'s answer, read once per transaction under `key`: what stays true while one transaction runs (a type and its
 * fields, an organisation) is not asked for again by each row of an import batch. Forgotten with the transaction.
 */
export function onceIn<T>(tx: Tx, key: string, load: () => Promise<T>): Promise<T> {
  let memo = memos.get(tx);
  if (!memo) {
    memo = new Map();
    memos.set(tx, memo);
  }
  let value = memo.get(key) as Promise<T> | undefined;
  if (!value) {
    value = load();
    memo.set(key, value);
  }
  return value;
}
