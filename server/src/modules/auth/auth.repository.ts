import { sql } from 'kysely';
import type { PrincipalSources } from '../../core/principal-cache';
import type { Tx } from '../../core/tenancy';
import { PLATFORM_TENANT } from '../../core/tenancy';
import type { TokenKind } from '../../db/types';
import type { TenantRow } from '../system/tenant/tenant.repository';

export interface ClientRow {
  clientId: string;
  clientType: 'confidential' | 'public';
  secretHash: string | null;
  grantTypes: string[];
  scopes: string[];
  accessTtlSec: number;
  refreshTtlSec: number;
  allowedTenantIds: string[] | null;
  enabled: boolean;
}

export async function findClient(tx: Tx, clientId: string): Promise<ClientRow | undefined> {
  const row = await tx
    .selectFrom('oauth_client')
    .select([
      'client_id',
      'client_type',
      'secret_hash',
      'grant_types',
      'scopes',
      'access_token_ttl_sec',
      'refresh_token_ttl_sec',
      'allowed_tenant_ids',
      'status',
    ])
    .where('client_id', '=', clientId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return (
    row && {
      clientId: row.client_id,
      clientType: row.client_type,
      secretHash: row.secret_hash,
      grantTypes: row.grant_types,
      scopes: row.scopes,
      accessTtlSec: row.access_token_ttl_sec,
      refreshTtlSec: row.refresh_token_ttl_sec,
      allowedTenantIds: row.allowed_tenant_ids,
      enabled: row.status === 'enabled',
    }
  );
}

export interface SignInUserRow {
  id: string;
  passwordHash: string;
  status: 'enabled' | 'disabled' | 'locked';
  lockedUntil: Date | null;
}

export async function findUserByUsername(tx: Tx, username: string): Promise<SignInUserRow | undefined> {
  const row = await tx
    .selectFrom('admin_user')
    .select(['id', 'password_hash', 'status', 'locked_until'])
    .where('username', '=', username)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return row && { id: row.id, passwordHash: row.password_hash, status: row.status, lockedUntil: row.locked_until };
}

/** Counts a failed password; a lock that has run out starts the count again. Returns the new count. */
export async function countFailedAttempt(tx: Tx, userId: string, now: Date): Promise<number> {
  const row = await tx
    .updateTable('admin_user')
    .set({
      failed_login_count: sql`CASE WHEN locked_until IS NOT NULL AND locked_until <= ${now} THEN 1 ELSE failed_login_count + 1 END`,
      locked_until: sql`CASE WHEN locked_until IS NOT NULL AND locked_until <= ${now} THEN NULL ELSE locked_until END`,
    })
    .where('id', '=', userId)
    .returning('failed_login_count')
    .executeTakeFirstOrThrow();
  return row.failed_login_count;
}

export async function lockUser(tx: Tx, userId: string, until: Date): Promise<void> {
  await tx.updateTable('admin_user').set({ locked_until: until }).where('id', '=', userId).execute();
}

export async function recordSuccessfulSignIn(tx: Tx, userId: string, now: Date, ip: string | null): Promise<void> {
  await tx
    .updateTable('admin_user')
    .set({ failed_login_count: 0, locked_until: null, last_login_at: now, last_login_ip: ip })
    .where('id', '=', userId)
    .execute();
}

export interface LoginLogEntry {
  tenantId: string;
  userId: string | null;
  username: string;
  clientId: string | null;
  logType: 'login_password' | 'login_refresh' | 'logout_self' | 'logout_forced';
  result: string;
  ip: string | null;
  userAgent: string | null;
  /** The server's clock, which lock-out of unknown user names reads back; the database's when absent. */
  at?: Date;
}

export async function insertLoginLog(tx: Tx, e: LoginLogEntry): Promise<void> {
  await tx
    .insertInto('login_log')
    .values({
      tenant_id: e.tenantId,
      user_id: e.userId,
      username: e.username.slice(0, 100),
      client_id: e.clientId?.slice(0, 64) ?? null,
      log_type: e.logType,
      result: e.result,
      ip: e.ip,
      user_agent: e.userAgent,
      created_at: e.at,
    })
    .execute();
}

/** Failed sign-ins of a user name that has no account, oldest first (the latest 200 are plenty to replay a lock). */
export async function findUnknownUserFailures(tx: Tx, tenantId: string, username: string): Promise<Date[]> {
  const rows = await tx
    .selectFrom('login_log')
    .select('created_at')
    .where('tenant_id', '=', tenantId)
    .where('username', '=', username)
    .where('user_id', 'is', null)
    .where('log_type', '=', 'login_password')
    .where('result', 'in', ['bad_credentials', 'user_locked'])
    .orderBy('created_at', 'desc')
    .limit(200)
    .execute();
  return rows.map((r) => r.created_at).reverse();
}

export async function createSession(
  tx: Tx,
  s: {
    tenantId: string;
    userId: string;
    clientId: string;
    scopes: string[];
    ip: string | null;
    userAgent: string | null;
    now: Date;
  },
): Promise<string> {
  const row = await tx
    .insertInto('auth_session')
    .values({
      tenant_id: s.tenantId,
      user_id: s.userId,
      client_id: s.clientId,
      scopes: s.scopes,
      ip: s.ip,
      user_agent: s.userAgent,
      created_at: s.now,
      last_used_at: s.now,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The tokens a session is issued at once (an access and a refresh token), in one statement. */
export async function insertTokens(
  tx: Tx,
  s: { tenantId: string; sessionId: string; now: Date },
  tokens: { kind: TokenKind; tokenHash: string; expiresAt: Date }[],
): Promise<void> {
  await tx
    .insertInto('auth_token')
    .values(
      tokens.map((t) => ({
        tenant_id: s.tenantId,
        session_id: s.sessionId,
        kind: t.kind,
        token_hash: t.tokenHash,
        expires_at: t.expiresAt,
        created_at: s.now,
      })),
    )
    .execute();
}

/**
 * What an authenticated request's principal is read from (findTokenContext, findPermissionCodes): a write that may
 * change one of these empties the principal cache (core/principal-cache.ts). Keep it in step with those two queries.
 */
export const PRINCIPAL_SOURCES: PrincipalSources = {
  auth_token: {
    inserts: false,
    columns: ['revoked_at', 'expires_at', 'kind', 'token_hash', 'session_id', 'tenant_id'],
  },
  auth_session: { inserts: false, columns: ['revoked_at', 'user_id', 'client_id', 'tenant_id'] },
  admin_user: {
    inserts: false,
    columns: ['status', 'deleted_at', 'tenant_id', 'password_hash', 'must_change_password'],
  },
  tenant: { inserts: false },
  user_role: { inserts: true },
  role: { inserts: false },
  role_permission: { inserts: true },
  permission: { inserts: false },
  package_permission: { inserts: true },
};

export interface TokenContextRow {
  tokenId: string;
  kind: TokenKind;
  expiresAt: Date;
  usedAt: Date | null;
  revokedAt: Date | null;
  sessionId: string;
  sessionRevokedAt: Date | null;
  sessionScopes: string[];
  clientId: string;
  userId: string;
  username: string;
  userStatus: 'enabled' | 'disabled' | 'locked';
  userDeleted: boolean;
  /** Undefined when the tenant is deleted. */
  tenant: (TenantRow & PermissionScope) | undefined;
  mustChangePassword: boolean;
}

export async function findTokenContext(tx: Tx, tokenId: string): Promise<TokenContextRow | undefined> {
  const row = await tx
    .selectFrom('auth_token as t')
    .innerJoin('auth_session as s', 's.id', 't.session_id')
    .innerJoin('admin_user as u', 'u.id', 's.user_id')
    .innerJoin('tenant as tn', 'tn.id', 't.tenant_id')
    .select([
      't.id',
      't.kind',
      't.expires_at',
      't.used_at',
      't.revoked_at',
      's.id as session_id',
      's.revoked_at as session_revoked_at',
      's.scopes as session_scopes',
      's.client_id',
      'u.id as user_id',
      'u.username',
      'u.status',
      'u.deleted_at',
      'tn.id as tenant_id',
      'tn.code as tenant_code',
      'tn.name as tenant_name',
      'tn.status as tenant_status',
      'tn.expires_at as tenant_expires_at',
      'tn.package_id',
      'tn.deleted_at as tenant_deleted_at',
      'u.must_change_password',
    ])
    .where('t.id', '=', tokenId)
    .executeTakeFirst();
  return (
    row && {
      tokenId: row.id,
      kind: row.kind,
      expiresAt: row.expires_at,
      usedAt: row.used_at,
      revokedAt: row.revoked_at,
      sessionId: row.session_id,
      sessionRevokedAt: row.session_revoked_at,
      sessionScopes: row.session_scopes,
      clientId: row.client_id,
      userId: row.user_id,
      username: row.username,
      userStatus: row.status,
      userDeleted: row.deleted_at !== null,
      tenant:
        row.tenant_deleted_at === null
          ? {
              id: row.tenant_id,
              code: row.tenant_code,
              name: row.tenant_name,
              status: row.tenant_status,
              expiresAt: row.tenant_expires_at,
              packageId: row.package_id,
            }
          : undefined,
      mustChangePassword: row.must_change_password,
    }
  );
}

/** Marks a refresh token used, only if nobody did first; false means it was already used or revoked. */
export async function markRefreshTokenUsed(tx: Tx, tokenId: string, now: Date): Promise<boolean> {
  const row = await tx
    .updateTable('auth_token')
    .set({ used_at: now })
    .where('id', '=', tokenId)
    .where('used_at', 'is', null)
    .where('revoked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Keeps the pair a refresh token was exchanged for, sealed with that token, for a repeated presentation. */
export async function storeSuccessor(tx: Tx, tokenId: string, sealed: string): Promise<void> {
  await tx.updateTable('auth_token').set({ successor_sealed: sealed }).where('id', '=', tokenId).execute();
}

export async function findSuccessor(
  tx: Tx,
  tokenId: string,
): Promise<{ usedAt: Date | null; sealed: string | null } | undefined> {
  const row = await tx
    .selectFrom('auth_token')
    .select(['used_at', 'successor_sealed'])
    .where('id', '=', tokenId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return row && { usedAt: row.used_at, sealed: row.successor_sealed };
}

/** Open sessions to end: one, a user's (all but one, when `except` is given), or every one issued to a client. */
export type SessionSelector = { sessionId: string } | { userId: string; except?: string } | { clientId: string };

/** Revokes the chosen open sessions and every access and refresh token they issued; returns how many sessions. */
export async function revokeSessions(tx: Tx, which: SessionSelector, reason: string, now: Date): Promise<number> {
  let query = tx
    .updateTable('auth_session')
    .set({ revoked_at: now, revoke_reason: reason })
    .where('revoked_at', 'is', null);
  if ('sessionId' in which) query = query.where('id', '=', which.sessionId);
  else if ('clientId' in which) query = query.where('client_id', '=', which.clientId);
  else {
    query = query.where('user_id', '=', which.userId);
    if (which.except) query = query.where('id', '!=', which.except);
  }
  const sessions = await query.returning('id').execute();
  if (sessions.length === 0) return 0;
  await tx
    .updateTable('auth_token')
    .set({ revoked_at: now })
    .where(
      'session_id',
      'in',
      sessions.map((s) => s.id),
    )
    .where('revoked_at', 'is', null)
    .execute();
  return sessions.length;
}

/**
 * What a user may do: the union of the permissions of their enabled roles, within what the tenant may have — every
 * permission in the platform tenant; elsewhere the tenant's package, never a platform-only one.
 */
export interface PermissionScope {
  code: string;
  packageId: string | null;
}

export async function findPermissionCodes(tx: Tx, userId: string, tenant: PermissionScope): Promise<string[]> {
  let q = tx
    .selectFrom('user_role as ur')
    .innerJoin('role as r', 'r.id', 'ur.role_id')
    .innerJoin('role_permission as rp', 'rp.role_id', 'r.id')
    .innerJoin('permission as p', 'p.id', 'rp.permission_id')
    .select('p.code')
    .distinct()
    .where('ur.user_id', '=', userId)
    .where('r.status', '=', 'enabled')
    .where('r.deleted_at', 'is', null)
    .where('p.status', '=', 'enabled')
    .where('p.code', 'is not', null);
  if (tenant.code !== PLATFORM_TENANT) {
    const packageId = tenant.packageId ?? '0';
    q = q
      .where('p.platform_only', '=', false)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('package_permission as pp')
            .select('pp.permission_id')
            .whereRef('pp.permission_id', '=', 'p.id')
            .where('pp.package_id', '=', packageId),
        ),
      );
  }
  const rows = await q.orderBy('p.code').execute();
  return rows.flatMap((r) => (r.code ? [r.code] : []));
}

export async function findRoles(tx: Tx, userId: string): Promise<{ code: string; name: string }[]> {
  return tx
    .selectFrom('user_role as ur')
    .innerJoin('role as r', 'r.id', 'ur.role_id')
    .select(['r.code', 'r.name'])
    .where('ur.user_id', '=', userId)
    .where('r.status', '=', 'enabled')
    .where('r.deleted_at', 'is', null)
    .orderBy('r.sort')
    .orderBy('r.id')
    .execute();
}

export interface ProfileRow {
  id: string;
  username: string;
  displayName: string;
  email: string | null;
  mobile: string | null;
  orgId: string | null;
  version: number;
  passwordHash: string;
  mustChangePassword: boolean;
}

export async function findProfile(tx: Tx, userId: string): Promise<ProfileRow | undefined> {
  const row = await tx
    .selectFrom('admin_user')
    .select([
      'id',
      'username',
      'display_name',
      'email',
      'mobile',
      'org_id',
      'version',
      'password_hash',
      'must_change_password',
    ])
    .where('id', '=', userId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return (
    row && {
      id: row.id,
      username: row.username,
      displayName: row.display_name,
      email: row.email,
      mobile: row.mobile,
      orgId: row.org_id,
      version: row.version,
      passwordHash: row.password_hash,
      mustChangePassword: row.must_change_password,
    }
  );
}

/** Optimistic update: false when the version is stale (nothing is written). */
export async function updateProfile(
  tx: Tx,
  userId: string,
  version: number,
  patch: { displayName: string; email?: string | null; mobile?: string | null },
  now: Date,
): Promise<boolean> {
  const row = await tx
    .updateTable('admin_user')
    .set({
      display_name: patch.displayName,
      ...(patch.email !== undefined && { email: patch.email }),
      ...(patch.mobile !== undefined && { mobile: patch.mobile }),
      version: sql`version + 1`,
      updated_at: now,
      updated_by: userId,
    })
    .where('id', '=', userId)
    .where('version', '=', version)
    .where('deleted_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}

export async function updatePassword(tx: Tx, userId: string, passwordHash: string, now: Date): Promise<void> {
  await tx
    .updateTable('admin_user')
    .set({
      password_hash: passwordHash,
      password_changed_at: now,
      must_change_password: false,
      failed_login_count: 0,
      locked_until: null,
      version: sql`version + 1`,
      updated_at: now,
      updated_by: userId,
    })
    .where('id', '=', userId)
    .execute();
}

export async function narrowSessionScopes(tx: Tx, sessionId: string, scopes: string[]): Promise<void> {
  await tx.updateTable('auth_session').set({ scopes }).where('id', '=', sessionId).execute();
}
