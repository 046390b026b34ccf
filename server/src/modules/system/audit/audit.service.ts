import type { Principal } from '../../../core/context';
import { forbidden } from '../../../core/errors';
import { filterValue, type ListQuery, type Page, toPage } from '../../../core/resource/list-query';
import type { AuditRecord, WriteContext } from '../../../core/resource/resource';
import type { Tenancy, Tx } from '../../../core/tenancy';
import { importAuditTrail, insertAuditLogs, listAuditLogs, listLoginLogs } from './audit.repository';
import type { AuditLog, LoginLog } from './audit.schema';

export const AUDIT_LIST_PERMISSION = 'system:audit:list';

const secretPattern = /password|secret|hash|token/i;
/** Whether a key names a secret, tested once per key (an import's rows repeat the same few keys). */
const secretKeys = new Map<string, boolean>();
const secretKey = (key: string) => {
  let secret = secretKeys.get(key);
  if (secret === undefined) {
    secret = secretPattern.test(key);
    if (secretKeys.size < 10_000) secretKeys.set(key, secret);
  }
  return secret;
};

/**
 * Drops every key that names a secret, at any depth: the trail never holds credentials. What holds no such key is
 * answered as it is, uncopied (an import audits thousands of rows at once); what does, as a new object made without
 * its secrets (never one copied whole and then deleted from, which the engine keeps as a slower dictionary).
 */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) {
    let copy: unknown[] | undefined;
    value.forEach((item, i) => {
      const clean = redact(item);
      if (clean === item) return;
      copy ??= [...value];
      copy[i] = clean;
    });
    return copy ?? value;
  }
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    let copy: Record<string, unknown> | undefined;
    keys.forEach((key, i) => {
      const item = record[key];
      const secret = secretKey(key);
      const clean = secret ? undefined : redact(item);
      if (!copy) {
        if (!secret && clean === item) return;
        copy = {};
        for (const earlier of keys.slice(0, i)) copy[earlier] = record[earlier];
      }
      if (!secret) copy[key] = clean;
    });
    return copy ?? value;
  }
  return value;
}

export function createAuditService(deps: { tenancy: Tenancy }) {
  const listCodes = new Map<string, string>();

  /** Records of one actor in one statement; each is made (`toRecord`) and redacted as its row's JSON is made. */
  const recordMany = <T = AuditRecord>(
    tx: Tx,
    ctx: WriteContext,
    items: readonly T[],
    toRecord: (item: T) => AuditRecord = (item) => item as AuditRecord,
  ): Promise<void> =>
    insertAuditLogs(
      tx,
      { tenantId: ctx.tenantId, actorId: ctx.actorId, ip: ctx.ip, userAgent: ctx.userAgent, at: ctx.now },
      items,
      toRecord,
      redact,
    );

  return {
    /** A resource type's trail is readable with its list code (as well as with system:audit:list). */
    register(resourceType: string, listCode: string) {
      listCodes.set(resourceType, listCode);
    },

    record(tx: Tx, ctx: WriteContext, r: AuditRecord): Promise<void> {
      return recordMany(tx, ctx, [r]);
    },

    /** Several records of one actor in one statement (a batch of an import). */
    recordMany,

    traced: importAuditTrail,

    async list(principal: Principal, query: ListQuery): Promise<Page<AuditLog>> {
      const type = filterValue(query, 'resourceType');
      const typeCode = type?.kind === 'eq' ? listCodes.get(type.value) : undefined;
      if (!principal.permissions.has(AUDIT_LIST_PERMISSION) && !(typeCode && principal.permissions.has(typeCode)))
        throw forbidden();
      const result = await deps.tenancy.inTenant(principal.tenantId, (tx) => listAuditLogs(tx, query));
      return toPage(query, result as { rows: AuditLog[]; total: number });
    },

    async loginLogs(tenantId: string, query: ListQuery): Promise<Page<LoginLog>> {
      const result = await deps.tenancy.inTenant(tenantId, (tx) => listLoginLogs(tx, query));
      const rows = result.rows.map((r) => {
        const outcome = r.result as string;
        return {
          ...r,
          result: outcome === 'success' ? 'success' : 'failure',
          reason: outcome === 'success' ? null : outcome,
        } as LoginLog;
      });
      return toPage(query, { rows, total: result.total });
    },
  };
}

export type AuditService = ReturnType<typeof createAuditService>;
