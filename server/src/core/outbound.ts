import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import ipaddr from 'ipaddr.js';
import type { Logger } from 'pino';
import type { Config } from '../config';
import { errorCodes } from './error-codes';
import type { Tenancy } from './tenancy';

/**
 * Connections to addresses a tenant sets (its S3 endpoint, SMTP server and SMS gateway): without a guard a tenant
 * administrator makes the server connect anywhere, the cloud's metadata service and the database included, and reads
 * the network's open ports from the errors. An address is checked after DNS resolution and the socket connects to
 * the address that was checked (a name resolved once, never again by the library), so a name that answers a public
 * address to the check and a private one to the connection gets nowhere. What failed is said in the server's log
 * alone: the owner is told that the service could not be reached, whatever the reason.
 */

/**
 * What an owner's addresses may be: `public` (every tenant's, and the platform's by default) or `private`, which
 * admits loopback, the RFC 1918 / unique-local ranges and CGNAT too, for the tenants the operator lists in
 * `OUTBOUND_PRIVATE_TENANTS` (an intranet relay, a MinIO beside the server). Link-local addresses (the cloud's
 * metadata service), multicast, unspecified and reserved ranges are refused to everyone.
 */
export type OutboundPolicy = 'public' | 'private';

const PRIVATE_RANGES: ReadonlySet<string> = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);
/**
 * Cloud metadata services outside the link-local range, refused to everyone: Alibaba Cloud's (in CGNAT space) and
 * AWS's over IPv6 (in unique-local space). The others (AWS, Tencent, Huawei, GCP, Azure) answer on 169.254.0.0/16.
 */
const METADATA: ReadonlySet<string> = new Set(
  ['100.100.100.200', 'fd00:ec2::254'].map((ip) => ipaddr.parse(ip).toNormalizedString()),
);
/** IPv6's global unicast block: what is not in it (IPv4-compatible `::a.b.c.d`, unassigned space) is reserved. */
const GLOBAL_UNICAST = ipaddr.parseCIDR('2000::/3');

/**
 * The special range `ip` is in (ipaddr.js's names: `loopback`, `private`, `linkLocal`..., or `metadata`), or undefined
 * if it is a public address.
 */
export function specialRange(ip: string): string | undefined {
  // an IPv4-mapped IPv6 address (::ffff:127.0.0.1) is the IPv4 address it maps
  const address = ipaddr.process(ip);
  if (METADATA.has(address.toNormalizedString())) return 'metadata';
  const range = address.range();
  if (range !== 'unicast') return range;
  if (address.kind() === 'ipv6' && !(address as ipaddr.IPv6).match(GLOBAL_UNICAST)) return 'reserved';
  return undefined;
}

/** Why `ip` may not be reached under `policy` (its range), or undefined when it may. */
export function refusal(ip: string, policy: OutboundPolicy): string | undefined {
  const range = specialRange(ip);
  return range && !(policy === 'private' && PRIVATE_RANGES.has(range)) ? range : undefined;
}

/** A connection the guard refused before it was made. */
export class OutboundRefusedError extends Error {
  readonly code = 'EOUTBOUND';
  constructor(
    readonly host: string,
    readonly address: string,
    readonly range: string,
  ) {
    super(`${host} is ${address}, in the ${range} range: refused`);
    this.name = 'OutboundRefusedError';
  }
}

/**
 * The service could not be reached: refused by the guard, no answer, a closed port, a broken TLS handshake, a
 * time-out. Its message is the same whatever the reason (the catalogue's `outbound.unreachable`, in English where no
 * reader's language applies); `cause` holds the reason for the log.
 */
export class UnreachableError extends Error {
  constructor(cause: unknown) {
    super(errorCodes['outbound.unreachable'].en, { cause });
    this.name = 'UnreachableError';
  }
}

/** Whether `err` or one of its causes is an UnreachableError. */
export function isUnreachable(err: unknown): boolean {
  for (let e = err; e instanceof Error; e = e.cause) if (e instanceof UnreachableError) return true;
  return false;
}

/** The host of a URL as a resolver takes it (an IPv6 literal without its brackets), or undefined if no URL. */
export function hostOf(url: string): string | undefined {
  try {
    return new URL(url).hostname.replace(/^\[(.*)\]$/, '$1') || undefined;
  } catch {
    return undefined;
  }
}

/** How an owner's outbound connections are made. */
export interface OutboundGuard {
  readonly policy: OutboundPolicy;
  /** Resolves `host` once and checks every address it has: the one to connect to. Throws OutboundRefusedError. */
  resolve(host: string): Promise<{ address: string; family: number }>;
  /** An agent (HTTP or HTTPS) whose every socket connects to a checked address. */
  agent(protocol: 'http:' | 'https:'): http.Agent;
  /** Says in the server's log why a connection failed (`what`: the owner and the service), answering `err`. */
  failed(err: unknown, what: Record<string, unknown>): unknown;
}

/** A guard of its own (createOutbound keeps one per policy for the server; the adapters' tests make theirs). */
export function outboundGuard(policy: OutboundPolicy, logger?: Logger): OutboundGuard {
  const check = (host: string, addresses: dns.LookupAddress[]) => {
    for (const { address } of addresses) {
      const range = refusal(address, policy);
      if (range) throw new OutboundRefusedError(host, address, range);
    }
  };

  /** A socket's `lookup`: the name resolved, every address checked, the checked ones connected to. */
  const lookup: net.LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, '');
      try {
        check(hostname, addresses);
      } catch (refused) {
        return callback(refused as OutboundRefusedError, '');
      }
      const [first] = addresses;
      if (options.all) callback(null, addresses);
      else if (first) callback(null, first.address, first.family);
      else callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '');
    });
  };

  /**
   * Node resolves a name through the socket's `lookup`, but connects to a literal address without asking it: that
   * one is checked here, before any socket exists.
   */
  type Connect = http.Agent['createConnection'];
  const connect = (agent: http.Agent, base: Connect, ...[options, callback]: Parameters<Connect>) => {
    const host = options.host ?? 'localhost';
    const range = net.isIP(host) ? refusal(host, policy) : undefined;
    if (!range) return base.call(agent, { ...options, lookup } as Parameters<Connect>[0], callback);
    process.nextTick(() => callback?.(new OutboundRefusedError(host, host, range), undefined as never));
    return undefined;
  };
  class HttpAgent extends http.Agent {
    override createConnection(...args: Parameters<Connect>) {
      return connect(this, super.createConnection, ...args);
    }
  }
  class HttpsAgent extends https.Agent {
    override createConnection(...args: Parameters<Connect>) {
      return connect(this, super.createConnection, ...args);
    }
  }

  const agents: Partial<Record<'http:' | 'https:', http.Agent>> = {};
  return {
    policy,
    async resolve(host) {
      const addresses = net.isIP(host)
        ? [{ address: host, family: net.isIP(host) }]
        : await dns.promises.lookup(host, { all: true });
      check(host, addresses);
      const [first] = addresses;
      if (!first) throw Object.assign(new Error(`${host} has no address`), { code: 'ENOTFOUND' });
      return first;
    },
    agent(protocol) {
      agents[protocol] ??=
        protocol === 'https:'
          ? new HttpsAgent({ keepAlive: true, maxSockets: 50 })
          : new HttpAgent({ keepAlive: true, maxSockets: 50 });
      return agents[protocol];
    },
    failed(err, what) {
      logger?.warn({ err, ...what, policy }, 'an outbound service could not be reached');
      return err;
    },
  };
}

/**
 * The guards of the owners of outbound addresses: a tenant's own addresses (its storage configurations, its
 * overrides of the message settings) follow its policy; the platform's (its configurations, the settings' platform
 * values that tenants inherit) the platform tenant's.
 */
export function createOutbound(deps: {
  config: Pick<Config, 'outboundPrivateTenants'>;
  tenancy: Tenancy;
  logger?: Logger;
}) {
  const trusted = new Set(deps.config.outboundPrivateTenants);
  const guards = { public: outboundGuard('public', deps.logger), private: outboundGuard('private', deps.logger) };
  const of = (tenantCode: string): OutboundGuard => guards[trusted.has(tenantCode) ? 'private' : 'public'];
  return {
    /** The guard of the tenant of this code. */
    of,

    /**
     * Whether the tenant may save `host` as one of its addresses: not when it is, or resolves to, an address its
     * policy refuses. A name that does not resolve (yet) is let through: it is checked again on every use. Reads the
     * tenant in a transaction of its own, and resolves outside any: call it before the write's transaction.
     */
    async admits(tenantId: string, host: string): Promise<boolean> {
      const tenant = await deps.tenancy.inTenant(tenantId, (tx) =>
        tx.selectFrom('tenant').select('code').where('id', '=', tenantId).executeTakeFirstOrThrow(),
      );
      try {
        await of(tenant.code).resolve(host);
        return true;
      } catch (err) {
        return !(err instanceof OutboundRefusedError);
      }
    },
  };
}

export type Outbound = ReturnType<typeof createOutbound>;
