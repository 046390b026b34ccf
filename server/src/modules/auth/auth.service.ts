import type { Config } from '../../config';
import type { Principal } from '../../core/context';
import { AppError, notFound, unauthorized, versionConflict } from '../../core/errors';
import { type PasswordHasher, meetsPasswordPolicy } from '../../core/password';
import type { SystemLookups } from '../../core/system-lookups';
import type { Tenancy, Tx } from '../../core/tenancy';
import { hashToken, newToken } from '../../core/tokens';
import type { SettingsService } from '../settings/settings.service';
import { findTenantById } from '../tenant/tenant.repository';
import { tenantRefusal } from '../tenant/tenant.service';
import * as repo from './auth.repository';
import type { ChangePassword, Me, TokenResponse, UpdateMe } from './auth.schema';

export interface RequestMeta {
  ip: string | null;
  userAgent: string | null;
}

interface Deps {
  tenancy: Tenancy;
  lookups: SystemLookups;
  settings: SettingsService;
  hasher: PasswordHasher;
  config: Config;
}

const lockoutDefaults = { 'security.lockout.maxAttempts': 5, 'security.lockout.durationMinutes': 15 };

/** Outcomes decided inside a transaction are thrown only after it commits, so counters, logs and revocations persist. */
type Outcome<T> = { ok: true; value: T } | { ok: false; error: AppError };
const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const fail = (error: AppError): Outcome<never> => ({ ok: false, error });
function unwrap<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

const tenantAllowed = (client: repo.ClientRow, tenantId: string) => !client.allowedTenantIds || client.allowedTenantIds.includes(tenantId);

/**
 * The scopes a token request is granted (RFC 6749 §3.3, §6): what it asks for, space-separated, when all of it lies
 * within what is held (the client's scopes at sign-in, the session's on refresh); everything held when it asks for none.
 */
export function grantScopes(requested: string | undefined, held: string[]): string[] {
  const asked = [...new Set((requested ?? '').split(' ').filter(Boolean))];
  if (!asked.length) return held;
  const beyond = asked.filter((scope) => !held.includes(scope));
  if (beyond.length) throw new AppError('auth.invalidScope', { scopes: beyond.join(' ') }, [{ field: 'scope', message: '' }]);
  return asked;
}

export function createAuthService({ tenancy, lookups, settings, hasher, config }: Deps) {
  const now = () => config.now();
  // Verifying against a throwaway hash keeps "no such user" as slow as "wrong password".
  const dummyHash = hasher.hash('not-a-real-password');

  async function checkClient(clientId: string, clientSecret: string | undefined, grant: string): Promise<repo.ClientRow> {
    const client = await tenancy.inPlatformScope((tx) => repo.findClient(tx, clientId));
    if (!client || !client.enabled) throw new AppError('auth.invalidClient');
    if (client.clientType === 'confidential') {
      if (!clientSecret || !client.secretHash || !(await hasher.verify(client.secretHash, clientSecret))) {
        throw new AppError('auth.invalidClient');
      }
    }
    if (!client.grantTypes.includes(grant)) throw new AppError('auth.unauthorizedClient');
    return client;
  }

  async function issueTokens(
    tx: Tx,
    tenantId: string,
    session: { id: string; scopes: string[] },
    client: repo.ClientRow,
  ): Promise<TokenResponse> {
    const sessionId = session.id;
    const at = now();
    const access = newToken();
    const refresh = newToken();
    await repo.insertToken(tx, {
      tenantId,
      sessionId,
      kind: 'access',
      tokenHash: hashToken(access),
      expiresAt: new Date(at.getTime() + client.accessTtlSec * 1000),
      now: at,
    });
    await repo.insertToken(tx, {
      tenantId,
      sessionId,
      kind: 'refresh',
      tokenHash: hashToken(refresh),
      expiresAt: new Date(at.getTime() + client.refreshTtlSec * 1000),
      now: at,
    });
    return {
      access_token: access,
      refresh_token: refresh,
      token_type: 'bearer',
      expires_in: client.accessTtlSec,
      refresh_expires_in: client.refreshTtlSec,
      scope: session.scopes.join(' '),
    };
  }

  return {
    async passwordGrant(
      input: { tenant: string; username: string; password: string; client_id: string; client_secret?: string; scope?: string },
      meta: RequestMeta,
    ): Promise<TokenResponse> {
      const client = await checkClient(input.client_id, input.client_secret, 'password');
      const scopes = grantScopes(input.scope, client.scopes);
      const username = input.username.trim().toLowerCase();
      const tenantId = await lookups.tenantIdByCode(input.tenant.trim().toLowerCase());
      if (!tenantId) {
        await hasher.verify(await dummyHash, input.password);
        await lookups.logUnknownTenantSignIn({ username, clientId: client.clientId, ip: meta.ip, userAgent: meta.userAgent });
        throw new AppError('auth.badCredentials');
      }
      if (!tenantAllowed(client, tenantId)) throw new AppError('auth.unauthorizedClient');

      const log = (tx: Tx, userId: string | null, result: string) =>
        repo.insertLoginLog(tx, { tenantId, userId, username, clientId: client.clientId, logType: 'login_password', result, ...meta });

      const precheck = await tenancy.inTenant(tenantId, async (tx) => {
        const tenant = await findTenantById(tx, tenantId);
        const refusal = tenant && tenantRefusal(tenant, now());
        if (!tenant || refusal) {
          await log(tx, null, refusal === 'tenant.expired' ? 'tenant_expired' : 'tenant_disabled');
          return fail(new AppError(refusal ?? 'tenant.disabled'));
        }
        const user = await repo.findUserByUsername(tx, username);
        if (!user) {
          await log(tx, null, 'bad_credentials');
          return ok(undefined);
        }
        if (user.status === 'disabled') {
          await log(tx, user.id, 'user_disabled');
          return fail(new AppError('auth.userDisabled'));
        }
        const lockedFor = user.lockedUntil ? user.lockedUntil.getTime() - now().getTime() : 0;
        if (user.status === 'locked' || lockedFor > 0) {
          await log(tx, user.id, 'user_locked');
          const minutes = user.status === 'locked' ? '∞' : Math.max(1, Math.ceil(lockedFor / 60_000));
          return fail(new AppError('auth.accountLocked', { minutes }));
        }
        return ok(user);
      });
      const user = unwrap(precheck);

      const valid = await hasher.verify(user?.passwordHash ?? (await dummyHash), input.password);
      if (!user) throw new AppError('auth.badCredentials');

      const outcome = await tenancy.inTenant(tenantId, async (tx) => {
        if (!valid) {
          const policy = await settings.numbers(tx, lockoutDefaults);
          const failures = await repo.countFailedAttempt(tx, user.id, now());
          if (failures >= policy['security.lockout.maxAttempts']) {
            const minutes = policy['security.lockout.durationMinutes'];
            await repo.lockUser(tx, user.id, new Date(now().getTime() + minutes * 60_000));
            await log(tx, user.id, 'user_locked');
            return fail(new AppError('auth.accountLocked', { minutes }));
          }
          await log(tx, user.id, 'bad_credentials');
          return fail(new AppError('auth.badCredentials'));
        }
        await repo.recordSuccessfulSignIn(tx, user.id, now(), meta.ip);
        const sessionId = await repo.createSession(tx, { tenantId, userId: user.id, clientId: client.clientId, scopes, ...meta, now: now() });
        await log(tx, user.id, 'success');
        return ok(await issueTokens(tx, tenantId, { id: sessionId, scopes }, client));
      });
      return unwrap(outcome);
    },

    async refreshGrant(input: { refresh_token: string; client_id: string; client_secret?: string; scope?: string }): Promise<TokenResponse> {
      const client = await checkClient(input.client_id, input.client_secret, 'refresh_token');
      const found = await lookups.tokenByHash(hashToken(input.refresh_token));
      if (!found || found.kind !== 'refresh') throw new AppError('auth.invalidGrant');
      if (!tenantAllowed(client, found.tenantId)) throw new AppError('auth.unauthorizedClient');

      const outcome = await tenancy.inTenant(found.tenantId, async (tx) => {
        const token = await repo.findTokenContext(tx, found.tokenId);
        if (!token) return fail(new AppError('auth.invalidGrant'));
        if (token.usedAt || token.revokedAt) {
          // A refresh token presented twice was copied: end the whole session.
          if (token.usedAt) await repo.revokeSessions(tx, { sessionId: token.sessionId }, 'refresh_token_reuse', now());
          return fail(new AppError('auth.invalidGrant'));
        }
        if (token.sessionRevokedAt || token.expiresAt.getTime() <= now().getTime() || token.clientId !== client.clientId) {
          return fail(new AppError('auth.invalidGrant'));
        }
        const tenant = await findTenantById(tx, found.tenantId);
        const refusal = tenant ? tenantRefusal(tenant, now()) : 'tenant.disabled';
        if (refusal) return fail(new AppError(refusal));
        if (token.userDeleted || token.userStatus !== 'enabled') return fail(new AppError('auth.userDisabled'));
        const scopes = input.scope === undefined ? token.sessionScopes : grantScopes(input.scope, token.sessionScopes);
        if (!(await repo.markRefreshTokenUsed(tx, token.tokenId, now()))) {
          await repo.revokeSessions(tx, { sessionId: token.sessionId }, 'refresh_token_reuse', now());
          return fail(new AppError('auth.invalidGrant'));
        }
        if (scopes.length !== token.sessionScopes.length) await repo.narrowSessionScopes(tx, token.sessionId, scopes);
        return ok(await issueTokens(tx, found.tenantId, { id: token.sessionId, scopes }, client));
      });
      return unwrap(outcome);
    },

    /** Resolves a bearer token to the principal, or 401. */
    async authenticate(authorization: string | undefined): Promise<Principal> {
      const match = authorization?.match(/^bearer\s+([A-Za-z0-9_-]{16,200})\s*$/i);
      if (!match?.[1]) throw unauthorized();
      const found = await lookups.tokenByHash(hashToken(match[1]));
      if (!found || found.kind !== 'access') throw unauthorized();
      const principal = await tenancy.inTenant(found.tenantId, async (tx) => {
        const token = await repo.findTokenContext(tx, found.tokenId);
        if (!token || token.revokedAt || token.sessionRevokedAt || token.expiresAt.getTime() <= now().getTime()) return undefined;
        if (token.userDeleted || token.userStatus !== 'enabled') return undefined;
        const tenant = await findTenantById(tx, found.tenantId);
        if (!tenant || tenantRefusal(tenant, now())) return undefined;
        const permissions = await repo.findPermissionCodes(tx, found.tenantId, token.userId);
        return {
          tenantId: found.tenantId,
          userId: token.userId,
          sessionId: token.sessionId,
          clientId: token.clientId,
          permissions: new Set(permissions),
          mustChangePassword: token.mustChangePassword,
        } satisfies Principal;
      });
      if (!principal) throw unauthorized();
      return principal;
    },

    async logout(principal: Principal, meta: RequestMeta): Promise<void> {
      await tenancy.inTenant(principal.tenantId, async (tx) => {
        await repo.revokeSessions(tx, { sessionId: principal.sessionId }, 'logout', now());
        const profile = await repo.findProfile(tx, principal.userId);
        await repo.insertLoginLog(tx, {
          tenantId: principal.tenantId,
          userId: principal.userId,
          username: profile?.username ?? '',
          clientId: principal.clientId,
          logType: 'logout_self',
          result: 'success',
          ...meta,
        });
      });
    },

    async me(principal: Principal): Promise<Me> {
      return tenancy.inTenant(principal.tenantId, async (tx) => {
        const [profile, roles, tenant] = [
          await repo.findProfile(tx, principal.userId),
          await repo.findRoles(tx, principal.userId),
          await findTenantById(tx, principal.tenantId),
        ];
        if (!profile || !tenant) throw notFound();
        return {
          userId: profile.id,
          userName: profile.username,
          displayName: profile.displayName,
          email: profile.email,
          mobile: profile.mobile,
          version: profile.version,
          mustChangePassword: profile.mustChangePassword,
          permissions: [...principal.permissions].sort(),
          roles,
          tenant: { id: tenant.id, code: tenant.code, name: tenant.name },
          orgId: profile.orgId,
          clientType: principal.clientId,
        };
      });
    },

    async updateMe(principal: Principal, input: UpdateMe): Promise<Me> {
      const { version, ...patch } = input;
      const updated = await tenancy.inTenant(principal.tenantId, (tx) =>
        repo.updateProfile(tx, principal.userId, version, patch, now()),
      );
      if (!updated) throw versionConflict();
      return this.me(principal);
    },

    async changePassword(principal: Principal, input: ChangePassword): Promise<void> {
      const { profile, policy } = await tenancy.inTenant(principal.tenantId, async (tx) => ({
        profile: await repo.findProfile(tx, principal.userId),
        policy: await settings.passwordPolicy(tx),
      }));
      if (!profile) throw unauthorized();
      if (!(await hasher.verify(profile.passwordHash, input.currentPassword))) {
        throw new AppError('auth.badCredentials', {}, [{ field: 'currentPassword', message: '' }]);
      }
      if (!meetsPasswordPolicy(input.newPassword, policy)) {
        throw new AppError('auth.passwordPolicy', { minLength: policy.minLength }, [{ field: 'newPassword', message: '' }]);
      }
      const passwordHash = await hasher.hash(input.newPassword);
      await tenancy.inTenant(principal.tenantId, async (tx) => {
        await repo.updatePassword(tx, principal.userId, passwordHash, now());
        await repo.revokeSessions(tx, { userId: principal.userId, except: principal.sessionId }, 'password_changed', now());
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
