import type { KyselyPlugin, OperationNode, QueryId, RootOperationNode } from 'kysely';
import type { Principal } from './context';
import type { TransactionWatch } from './tenancy';

/**
 * The tables a principal is read from. `inserts`: whether a new row there can change a principal already resolved
 * (a row in a link table can; a new session, token, user or role is not linked to a cached token yet). `columns`:
 * when given, only updates of these columns matter (sign-in stamps and used refresh tokens do not).
 */
export type PrincipalSources = Record<string, { inserts: boolean; columns?: readonly string[] }>;

export interface ResolvedPrincipal {
  principal: Principal;
  /** The token's or the tenant's expiry, whichever comes first. */
  validUntil: Date;
}

export interface PrincipalCacheOptions {
  sources: PrincipalSources;
  /** How long a resolved principal is reused at most; 0 turns the cache off. Bounds what another instance sees. */
  ttlMs: number;
  now: () => Date;
  maxEntries?: number;
  /**
   * After a transaction that may have changed a principal has ended: tells the other instances (core/invalidation.ts),
   * whose caches would otherwise hold the change back for up to `ttlMs`.
   */
  onWritten?: () => Promise<void>;
}

const WRITES = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
const WRITE_WORDS = /\b(insert|update|delete|merge|truncate)\b/i;

type Node = OperationNode & Record<string, unknown>;

function tableName(node: unknown): string | undefined {
  const n = node as Node | undefined;
  if (n?.kind === 'TableNode') return (n.table as { identifier: { name: string } }).identifier.name;
  if (n?.kind === 'AliasNode') return tableName(n.node);
  return undefined;
}

function columnName(node: unknown): string | undefined {
  const n = node as Node;
  return n.kind === 'ColumnNode' ? (n.column as { name: string }).name : undefined;
}

/** Whether one write statement (possibly nested in a CTE) may change a principal. */
function touches(node: Node, sources: PrincipalSources): boolean {
  if (node.kind === 'RawNode') return WRITE_WORDS.test((node.sqlFragments as string[]).join(' '));
  if (WRITES.has(node.kind)) {
    const tables =
      node.kind === 'InsertQueryNode'
        ? [tableName(node.into)]
        : node.kind === 'DeleteQueryNode'
          ? ((node.from as { froms: unknown[] }).froms ?? []).map(tableName)
          : [tableName(node.table ?? node.into)];
    for (const table of tables) {
      if (!table) return true;
      const source = sources[table];
      if (!source) continue;
      if (node.kind === 'DeleteQueryNode' || node.kind === 'MergeQueryNode') return true;
      if (node.kind === 'InsertQueryNode' && (source.inserts || node.onConflict)) return true;
      if (node.kind === 'UpdateQueryNode') {
        const updates = (node.updates as { column: unknown }[] | undefined) ?? [];
        if (!source.columns || updates.some((u) => source.columns?.includes(columnName(u.column) ?? ''))) return true;
      }
    }
  }
  const common = node.with as { expressions: { expression: Node }[] } | undefined;
  return common?.expressions.some((cte) => touches(cte.expression, sources)) ?? false;
}

/**
 * Resolved principals by token hash, so that an authenticated request costs no look-up of its own. Exact on one
 * instance: every write that may change a principal (seen by a Kysely plugin on the database, whoever issues it)
 * empties the cache when its statement or transaction ends, and a principal read while such a write was under way
 * is not kept. Other instances are told by `onWritten` once such a transaction has ended; should that be lost, they
 * see the change after `ttlMs` at most.
 */
export function createPrincipalCache({
  sources,
  ttlMs,
  now,
  maxEntries = 10_000,
  onWritten = async () => {},
}: PrincipalCacheOptions) {
  const entries = new Map<string, { principal: Principal; until: number }>();
  /** Bumped whenever the cache is emptied; a resolution that started before a bump is not kept. */
  let generation = 0;
  /** Counts write statements that touch a source: a transaction during which it moved empties the cache at its end. */
  let writes = 0;
  const pending = new WeakSet<QueryId>();

  const invalidate = () => {
    generation++;
    entries.clear();
  };

  const plugin: KyselyPlugin = {
    transformQuery({ node, queryId }): RootOperationNode {
      if (node.kind !== 'SelectQueryNode' || node.with) {
        if (touches(node as Node, sources)) {
          writes++;
          pending.add(queryId);
          invalidate();
        }
      }
      return node;
    },
    async transformResult({ result, queryId }) {
      // Outside a transaction the statement has committed by now.
      if (pending.delete(queryId)) invalidate();
      return result;
    },
  };

  const watchTransaction: TransactionWatch = async (transaction) => {
    const before = writes;
    try {
      return await transaction();
    } finally {
      // After COMMIT (or ROLLBACK): a principal read meanwhile may predate the write. The request answers after the
      // other instances have been told, so that a client whose sign-out returned is refused everywhere next.
      if (writes !== before) {
        invalidate();
        await onWritten();
      }
    }
  };

  return {
    /** Installed on the database itself, so that writes outside the request path (scripts, tests) count too. */
    plugin,
    watchTransaction,
    invalidate,

    async resolve(
      tokenHash: string,
      load: () => Promise<ResolvedPrincipal | undefined>,
    ): Promise<Principal | undefined> {
      const at = now().getTime();
      const hit = entries.get(tokenHash);
      if (hit && at < hit.until) return hit.principal;
      if (hit) entries.delete(tokenHash);
      const started = generation;
      const resolved = await load();
      if (!resolved) return undefined;
      if (ttlMs > 0 && started === generation) {
        if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
        entries.set(tokenHash, {
          principal: resolved.principal,
          until: Math.min(resolved.validUntil.getTime(), at + ttlMs),
        });
      }
      return resolved.principal;
    },
  };
}

export type PrincipalCache = ReturnType<typeof createPrincipalCache>;
