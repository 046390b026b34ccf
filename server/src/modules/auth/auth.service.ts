import type { Config } from '../../config';
import type { Principal } from '../../core/context';
import { AppError, notFound, unauthorized, versionConflict } from '../../core/errors';
import { type PasswordHasher, passwordPolicyError } from '../../core/password';
import type { PrincipalCache } from '../../core/principal-cache';
import type { SystemLookups } from '../../core/system-lookups';
import type { Tenancy, Tx } from '../../core/tenancy';
import { hashToken, newToken, sealWithToken, unsealWithToken } from '../../core/tokens';
import type { SettingsService } from '../system/settings/settings.service';
import { findTenantById } from '../system/tenant/tenant.repository';
import { tenantRefusal } from '../system/tenant/tenant.service';
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
  principals: PrincipalCache;
}

const lockoutDefaults = { 'security.lockout.maxAttempts': 5, 'security.lockout.durationMinutes': 15 };
type LockoutPolicy = typeof lockoutDefaults;

/**
 * admin_user's failure counter and lock (see countFailedAttempt), replayed over the failed attempts of a user name
 * that has no account, so that it locks and unlocks exactly as an account would and reveals nothing.
 */
export function replayLockout(
  attempts: Date[],
  policy: LockoutPolicy,
): { failures: number; lockedUntil: number | null } {
  let failures = 0;
  let lockedUntil: number | null = null;
  for (const at of attempts) {
    const t = at.getTime();
    if (lockedUntil !== null && t < lockedUntil) continue;
    if (lockedUntil !== null) [failures, lockedUntil] = [0, null];
    failures += 1;
    if (failures >= policy['security.lockout.maxAttempts'])
      lockedUntil = t + policy['security.lockout.durationMinutes'] * 60_000;
  }
  return { failures, lockedUntil };
}

/** From how many attempts left a wrong password says how many remain before the lock. */
const WARN_ATTEMPTS_LEFT = 2;

/**
 * The refusal of a wrong password (or an unknown user name, alike) after `failures` in a row: the lock when they
 * reach the limit, the attempts left when few remain, else plain bad credentials.
 */
export function wrongPasswordError(
  failures: number,
  policy: LockoutPolicy,
  fields?: { field: string; message: string }[],
): AppError {
  const minutes = policy['security.lockout.durationMinutes'];
  const left = policy['security.lockout.maxAttempts'] - failures;
  if (left <= 0) return new AppError('auth.accountLocked', { minutes });
  if (left <= WARN_ATTEMPTS_LEFT)
    return new AppError('auth.badCredentialsAttemptsLeft', { attempts: left, minutes }, fields, { attemptsLeft: left });
  return new AppError('auth.badCredentials', {}, fields);
}

const lockedMinutes = (lockedForMs: number) => Math.max(1, Math.ceil(lockedForMs / 60_000));

/** Outcomes decided inside a transaction are thrown only after it commits, so counters, logs and revocations persist. */
type Outcome<T> = { ok: true; value: T } | { ok: false; error: AppError };
const ok = <T>(value: T): Outcome<T> => ({ ok: true, value });
const fail = (error: AppError): Outcome<never> => ({ ok: false, error });
function unwrap<T>(outcome: Outcome<T>): T {
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

const tenantAllowed = (client: repo.ClientRow, tenantId: string) =>
  !client.allowedTenantIds || client.allowedTenantIds.includes(tenantId);

/**
 * The scopes a token request is granted (RFC 6749 §3.3, §6): what it asks for, space-separated, when all of it lies
 * within what is held (the client's scopes at sign-in, the session's on refresh); everything held when it asks for none.
 */
export function grantScopes(requested: string | undefined, held: string[]): string[] {
  const asked = [...new Set((requested ?? '').split(' ').filter(Boolean))];
  if (!asked.length) return held;
  const beyond = asked.filter((scope) => !held.includes(scope));
  if (beyond.length)
    throw new AppError('auth.invalidScope', { scopes: beyond.join(' ') }, [{ field: 'scope', message: '' }]);
  return asked;
}

export function createAuthService({ tenancy, lookups, settings, hasher, config, principals }: Deps) {
  const now = () => config.now();
  // Verifying against a throwaway hash keeps "no such user" as slow as "wrong password".
  const dummyHash = hasher.hash('not-a-real-password');

  async function checkClient(
    clientId: string,
    clientSecret: string | undefined,
    grant: string,
  ): Promise<repo.ClientRow> {
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

  const lockout = (tx: Tx) => settings.numbers(tx, lockoutDefaults);

  /** A wrong password counts towards the lock-out: 423 when it reaches the limit, else 400 bad credentials. */
  async function countFailure(
    tx: Tx,
    userId: string,
    fields?: { field: string; message: string }[],
  ): Promise<AppError> {
    const policy = await lockout(tx);
    const failures = await repo.countFailedAttempt(tx, userId, now());
    const refusal = wrongPasswordError(failures, policy, fields);
    if (refusal.code === 'auth.accountLocked') {
      const minutes = policy['security.lockout.durationMinutes'];
      await repo.lockUser(tx, userId, new Date(now().getTime() + minutes * 60_000));
    }
    return refusal;
  }

  /**
   * The pair a refresh token was already exchanged for, when it is presented again within the grace period (two tabs
   * refreshing together); undefined after it, or when the token was revoked, so that reuse ends the session.
   */
  async function successorWithinGrace(tx: Tx, token: repo.TokenContextRow, refreshToken: string, clientId: string) {
    if (token.sessionRevokedAt || token.clientId !== clientId) return undefined;
    const successor = await repo.findSuccessor(tx, token.tokenId);
    if (!successor?.usedAt || !successor.sealed) return undefined;
    const grace = await settings.numbers(tx, { 'security.refreshToken.reuseGraceSeconds': 10 });
    if (now().getTime() - successor.usedAt.getTime() > grace['security.refreshToken.reuseGraceSeconds'] * 1000)
      return undefined;
    const pair = unsealWithToken(refreshToken, successor.sealed);
    return pair === undefined ? undefined : (JSON.parse(pair) as TokenResponse);
  }

  async function issueTokens(
    tx: Tx,
    tenantId: string,
    session: { id: string; scopes: string[] },
    client: repo.ClientRow,
  ): Promise<TokenResponse> {
    const at = now();
    const access = newToken();
    const refresh = newToken();
    const expiry = (seconds: number) => new Date(at.getTime() + seconds * 1000);
    await repo.insertTokens(tx, { tenantId, sessionId: session.id, now: at }, [
      { kind: 'access', tokenHash: hashToken(access), expiresAt: expiry(client.accessTtlSec) },
      { kind: 'refresh', tokenHash: hashToken(refresh), expiresAt: expiry(client.refreshTtlSec) },
    ]);
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
      input: {
        tenant: string;
        username: string;
        password: string;
        client_id: string;
        client_secret?: string;
        scope?: string;
      },
      meta: RequestMeta,
    ): Promise<TokenResponse> {
      const client = await checkClient(input.client_id, input.client_secret, 'password');
      const scopes = grantScopes(input.scope, client.scopes);
      const username = input.username.trim().toLowerCase();
      const tenantId = await lookups.tenantIdByCode(input.tenant.trim().toLowerCase());
      if (!tenantId) {
        await hasher.verify(await dummyHash, input.password);
        await lookups.logUnknownTenantSignIn({
          username,
          clientId: client.clientId,
          ip: meta.ip,
          userAgent: meta.userAgent,
        });
        throw new AppError('auth.badCredentials');
      }
      if (!tenantAllowed(client, tenantId)) throw new AppError('auth.unauthorizedClient');

      const log = (tx: Tx, userId: string | null, result: string) =>
        repo.insertLoginLog(tx, {
          ...{ tenantId, userId, username, clientId: client.clientId, logType: 'login_password', result },
          ...meta,
          at: now(),
        });

      const precheck = await tenancy.inTenant(tenantId, async (tx) => {
        const tenant = await findTenantById(tx, tenantId);
        const refusal = tenant && tenantRefusal(tenant, now());
        if (!tenant || refusal) {
          await log(tx, null, refusal === 'tenant.expired' ? 'tenant_expired' : 'tenant_disabled');
          return fail(new AppError(refusal ?? 'tenant.disabled'));
        }
        const user = await repo.findUserByUsername(tx, username);
        if (!user) {
          const { lockedUntil } = replayLockout(
            await repo.findUnknownUserFailures(tx, tenantId, username),
            await lockout(tx),
          );
          if (lockedUntil === null || lockedUntil <= now().getTime()) return ok(undefined);
          await log(tx, null, 'user_locked');
          return fail(new AppError('auth.accountLocked', { minutes: lockedMinutes(lockedUntil - now().getTime()) }));
        }
        if (user.status === 'disabled') {
          await log(tx, user.id, 'user_disabled');
          return fail(new AppError('auth.userDisabled'));
        }
        const lockedFor = user.lockedUntil ? user.lockedUntil.getTime() - now().getTime() : 0;
        if (user.status === 'locked' || lockedFor > 0) {
          await log(tx, user.id, 'user_locked');
          const minutes = user.status === 'locked' ? '∞' : lockedMinutes(lockedFor);
          return fail(new AppError('auth.accountLocked', { minutes }));
        }
        return ok(user);
      });
      const user = unwrap(precheck);

      const valid = await hasher.verify(user?.passwordHash ?? (await dummyHash), input.password);

      const outcome = await tenancy.inTenant(tenantId, async (tx) => {
        if (!user) {
          const policy = await lockout(tx);
          const { failures } = replayLockout(
            [...(await repo.findUnknownUserFailures(tx, tenantId, username)), now()],
            policy,
          );
          const refusal = wrongPasswordError(failures, policy);
          await log(tx, null, refusal.code === 'auth.accountLocked' ? 'user_locked' : 'bad_credentials');
          return fail(refusal);
        }
        if (!valid) {
          const refusal = await countFailure(tx, user.id);
          await log(tx, user.id, refusal.code === 'auth.accountLocked' ? 'user_locked' : 'bad_credentials');
          return fail(refusal);
        }
        await repo.recordSuccessfulSignIn(tx, user.id, now(), meta.ip);
        const sessionId = await repo.createSession(tx, {
          tenantId,
          userId: user.id,
          clientId: client.clientId,
          scopes,
          ...meta,
          now: now(),
        });
        await log(tx, user.id, 'success');
        return ok(await issueTokens(tx, tenantId, { id: sessionId, scopes }, client));
      });
      return unwrap(outcome);
    },

    async refreshGrant(input: {
      refresh_token: string;
      client_id: string;
      client_secret?: string;
      scope?: string;
    }): Promise<TokenResponse> {
      const client = await checkClient(input.client_id, input.client_secret, 'refresh_token');
      const outcome = await lookups.inTenantOfToken(hashToken(input.refresh_token), 'refresh', async (tx, found) => {
        if (!tenantAllowed(client, found.tenantId)) return fail(new AppError('auth.unauthorizedClient'));
        const token = await repo.findTokenContext(tx, found.tokenId);
        if (!token) return fail(new AppError('auth.invalidGrant'));
        if (token.usedAt || token.revokedAt) {
          const again = token.revokedAt
            ? undefined
            : await successorWithinGrace(tx, token, input.refresh_token, client.clientId);
          if (again) return ok(again);
          // A refresh token presented twice after the grace period was copied: end the whole session.
          if (token.usedAt) await repo.revokeSessions(tx, { sessionId: token.sessionId }, 'refresh_token_reuse', now());
          return fail(new AppError('auth.invalidGrant'));
        }
        if (
          token.sessionRevokedAt ||
          token.expiresAt.getTime() <= now().getTime() ||
          token.clientId !== client.clientId
        ) {
          return fail(new AppError('auth.invalidGrant'));
        }
        const refusal = token.tenant ? tenantRefusal(token.tenant, now()) : 'tenant.disabled';
        if (refusal) return fail(new AppError(refusal));
        if (token.userDeleted || token.userStatus !== 'enabled') return fail(new AppError('auth.userDisabled'));
        const scopes = input.scope === undefined ? token.sessionScopes : grantScopes(input.scope, token.sessionScopes);
        if (!(await repo.markRefreshTokenUsed(tx, token.tokenId, now()))) {
          // Another request exchanged it a moment ago (it held the row until it committed).
          const again = await successorWithinGrace(tx, token, input.refresh_token, client.clientId);
          if (again) return ok(again);
          await repo.revokeSessions(tx, { sessionId: token.sessionId }, 'refresh_token_reuse', now());
          return fail(new AppError('auth.invalidGrant'));
        }
        if (scopes.length !== token.sessionScopes.length) await repo.narrowSessionScopes(tx, token.sessionId, scopes);
        const tokens = await issueTokens(tx, found.tenantId, { id: token.sessionId, scopes }, client);
        await repo.storeSuccessor(tx, token.tokenId, sealWithToken(input.refresh_token, JSON.stringify(tokens)));
        return ok(tokens);
      });
      if (!outcome) throw new AppError('auth.invalidGrant');
      return unwrap(outcome);
    },

    /** Resolves a bearer token to the principal, or 401: from the cache, else in one transaction. */
    async authenticate(authorization: string | undefined): Promise<Principal> {
      const match = authorization?.match(/^bearer\s+([A-Za-z0-9_-]{16,200})\s*$/i);
      if (!match?.[1]) throw unauthorized();
      const tokenHash = hashToken(match[1]);
      const principal = await principals.resolve(tokenHash, () =>
        lookups.inTenantOfToken(tokenHash, 'access', async (tx, found) => {
          const token = await repo.findTokenContext(tx, found.tokenId);
          const at = now();
          if (!token || token.revokedAt || token.sessionRevokedAt) return undefined;
          if (token.expiresAt.getTime() <= at.getTime()) return undefined;
          if (token.userDeleted || token.userStatus !== 'enabled') return undefined;
          if (!token.tenant || tenantRefusal(token.tenant, at)) return undefined;
          const permissions = await repo.findPermissionCodes(tx, token.userId, token.tenant);
          const tenantEnds = token.tenant.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY;
          return {
            principal: {
              tenantId: found.tenantId,
              userId: token.userId,
              sessionId: token.sessionId,
              clientId: token.clientId,
              permissions: new Set(permissions),
              mustChangePassword: token.mustChangePassword,
            } satisfies Principal,
            validUntil: new Date(Math.min(token.expiresAt.getTime(), tenantEnds)),
          };
        }),
      );
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
      const { profile, user, policy } = await tenancy.inTenant(principal.tenantId, async (tx) => {
        const found = await repo.findProfile(tx, principal.userId);
        return {
          profile: found,
          user: found && (await repo.findUserByUsername(tx, found.username)),
          policy: await settings.passwordPolicy(tx),
        };
      });
      if (!profile || !user) throw unauthorized();
      const lockedFor = user.lockedUntil ? user.lockedUntil.getTime() - now().getTime() : 0;
      if (lockedFor > 0) throw new AppError('auth.accountLocked', { minutes: lockedMinutes(lockedFor) });
      if (!(await hasher.verify(user.passwordHash, input.currentPassword))) {
        throw await tenancy.inTenant(principal.tenantId, (tx) =>
          countFailure(tx, principal.userId, [{ field: 'currentPassword', message: '' }]),
        );
      }
      const refusal = passwordPolicyError(input.newPassword, policy, {
        username: profile.username,
        field: 'newPassword',
      });
      if (refusal) throw refusal;
      const passwordHash = await hasher.hash(input.newPassword);
      await tenancy.inTenant(principal.tenantId, async (tx) => {
        await repo.updatePassword(tx, principal.userId, passwordHash, now());
        await repo.revokeSessions(
          tx,
          { userId: principal.userId, except: principal.sessionId },
          'password_changed',
          now(),
        );
      });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;
