import type { Principal } from '../../../core/context';
import { forbidden } from '../../../core/errors';
import { filterValue, type ListQuery, type Page, toPage } from '../../../core/resource/list-query';
import type { AuditRecord, WriteContext } from '../../../core/resource/resource';
import type { Tenancy, Tx } from '../../../core/tenancy';
import { importAuditTrail, insertAuditLogs, listAuditLogs, listLoginLogs } from './audit.repository';
import type { AuditLog, LoginLog } from './audit.schema';

export const AUDIT_LIST_PERMISSION = 'system:audit:list';

const secretKey = /password|secret|hash|token/i;

/** Drops every key that names a secret, at any depth: the trail never holds credentials. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => !secretKey.test(k))
        .map(([k, v]) => [k, redact(v)]),
    );
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
      (item) => {
        const r = toRecord(item);
        return { ...r, before: redact(r.before), after: redact(r.after) };
      },
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
