import type { WriteContext } from './resource/resource';
import type { Tx } from './tenancy';

const memos = new WeakMap<object, Map<string, Promise<unknown>>>();

/**
 * `load`'s answer, read once per transaction under `key`: what stays true while one transaction runs (a type and its
 * fields, an organisation) is not asked for again by each row of an import batch. Forgotten with the transaction.
 * `scope` may instead be the write context of a whole operation (an import job's, whose batches are transactions of
 * their own), for what it reads once for all of them.
 */
export function onceIn<T>(scope: Tx | WriteContext, key: string, load: () => Promise<T>): Promise<T> {
  let memo = memos.get(scope);
  if (!memo) {
    memo = new Map();
    memos.set(scope, memo);
  }
  let value = memo.get(key) as Promise<T> | undefined;
  if (!value) {
    value = load();
    memo.set(key, value);
  }
  return value;
}
