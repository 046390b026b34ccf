import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { DatabaseOptions } from './db/database';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  DATABASE_DIRECT_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx) => {
      const proxies = v === 'true' ? 1 : v === 'false' ? 0 : /^\d{1,2}$/.test(v) ? Number(v) : Number.NaN;
      if (Number.isNaN(proxies))
        ctx.addIssue({ code: 'custom', message: 'must be false, true or a number of proxies' });
      return proxies;
    }),
  DEMO_CONTENT: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  AUTH_TOKEN_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
  MESSAGE_CLAIM_SECONDS: z.coerce.number().int().min(10).max(120).default(120),
  OUTBOUND_PRIVATE_TENANTS: z
    .string()
    .default('')
    .transform((v) =>
      v
        .split(',')
        .map((code) => code.trim())
        .filter(Boolean),
    ),
  METRICS_TOKEN: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined)
    .refine((v) => v === undefined || v.length >= 16, 'must be at least 16 characters (openssl rand -hex 32)'),
  METRICS_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .or(z.literal('').transform(() => undefined)),
  ID_NUMBER_KEY: z
    .string()
    .optional()
    .transform((v, ctx) => {
      if (!v?.trim()) return undefined;
      const key = parseIdNumberKey(v);
      if (!key) ctx.addIssue({ code: 'custom', message: 'must be 32 bytes as 64 hexadecimal characters or base64' });
      return key;
    }),
});

export interface Config {
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  /**
   * A direct connection to the same PostgreSQL database, not through a pooler in transaction mode (pgbouncer): what
   * needs a session of its own — LISTEN/NOTIFY and the start-up lock — uses it. Defaults to `databaseUrl`.
   */
  databaseDirectUrl: string | undefined;
  logLevel: (typeof logLevels)[number];
  /**
   * How many proxies of ours stand in front (TRUST_PROXY: `false` 0, `true` 1, or a number): the client address is
   * X-Forwarded-For's entry that many from the right (request-info.ts); with 0, the peer's address.
   */
  trustProxy: number;
  /** Requests per window and IP on POST /api/auth/token. */
  tokenRateLimit: { windowMs: number; max: number };
  /**
   * How long a worker's claim on a message lasts: a message still being sent when it expires was left by a stopped
   * instance and is sent again. Longer than any provider's time-out (`message.wechat.timeoutMs`).
   */
  messageClaimMs: number;
  /** argon2id cost; tests lower memoryCost to keep hashing fast. */
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
  /**
   * How long a resolved access token (user, session, permissions) is reused; 0 resolves it on every request. Writes
   * through this instance take effect at once; writes through another instance after this long at most.
   */
  authCacheTtlMs: number;
  /** The master key of ID numbers at rest (core/id-number.ts); required on PostgreSQL. */
  idNumberKey?: Buffer;
  /**
   * The codes of the tenants whose own outbound addresses (storage endpoint, SMTP server, SMS gateway) may be loopback
   * or private, e.g. `platform` for a relay on the intranet; every other tenant's must be public (core/outbound.ts).
   */
  outboundPrivateTenants: string[];
  /**
   * On the embedded database, fill the demo tenant with demo content when it is first created (`npm start`); never
   * on PostgreSQL.
   */
  demoContent: boolean;
  /** A bearer of this token may read `/metrics` on the server's port (METRICS_TOKEN); without it, 404 there. */
  metricsToken: string | undefined;
  /** A second listener that serves only `/metrics` (METRICS_PORT), for a network the operator keeps apart. */
  metricsPort: number | undefined;
  /** The clock used for expiry and lockout decisions (tests move it). */
  now: () => Date;
}

export const defaultConfig: Config = {
  port: 8000,
  dataDir: './data',
  databaseUrl: undefined,
  databaseDirectUrl: undefined,
  logLevel: 'info',
  trustProxy: 0,
  tokenRateLimit: { windowMs: 60_000, max: 20 },
  messageClaimMs: 120_000,
  argon2: { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
  authCacheTtlMs: 5_000,
  demoContent: true,
  outboundPrivateTenants: [],
  metricsToken: undefined,
  metricsPort: undefined,
  now: () => new Date(),
};

export class ConfigError extends Error {}

/**
 * Loads `.env.local` (a developer's own values, ignored by git) and then `.env` (the documented defaults) from `dir`
 * into process.env. A variable already set is never replaced, so the real environment wins, then `.env.local`.
 */
export function readEnvFiles(dir = process.cwd()): void {
  for (const name of ['.env.local', '.env']) {
    const file = path.join(dir, name);
    if (existsSync(file)) process.loadEnvFile(file);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    ...defaultConfig,
    port: e.PORT,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    databaseDirectUrl: e.DATABASE_DIRECT_URL ?? e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    demoContent: e.DEMO_CONTENT,
    authCacheTtlMs: e.AUTH_CACHE_TTL_MS,
    tokenRateLimit: { ...defaultConfig.tokenRateLimit, max: e.AUTH_TOKEN_RATE_LIMIT },
    messageClaimMs: e.MESSAGE_CLAIM_SECONDS * 1000,
    idNumberKey: e.ID_NUMBER_KEY,
    outboundPrivateTenants: e.OUTBOUND_PRIVATE_TENANTS,
    metricsToken: e.METRICS_TOKEN,
    metricsPort: e.METRICS_PORT,
  };
}

export function resolveConfig(overrides: Partial<Config> = {}): Config {
  return {
    ...defaultConfig,
    ...overrides,
    tokenRateLimit: { ...defaultConfig.tokenRateLimit, ...overrides.tokenRateLimit },
    argon2: { ...defaultConfig.argon2, ...overrides.argon2 },
  };
}

/** `ID_NUMBER_KEY`: 32 bytes, as 64 hexadecimal characters or base64. */
export function parseIdNumberKey(text: string): Buffer | undefined {
  const t = text.trim();
  if (/^[0-9a-fA-F]{64}$/.test(t)) return Buffer.from(t, 'hex');
  const b = Buffer.from(t, 'base64');
  return b.length === 32 && /^[A-Za-z0-9+/]+=*$/.test(t) ? b : undefined;
}

const KEY_FILE = 'id-number.key';

/**
 * The master key: the configured one; else, on the embedded database, the one kept beside it (made on the first
 * start, readable by its owner only), or a key of the process for an in-memory database. PostgreSQL refuses to start
 * without a configured key: a key made on one server would leave the others unable to read the numbers.
 */
export function resolveIdNumberKey(configured: Buffer | undefined, database: DatabaseOptions): Buffer {
  if (configured) return configured;
  if (database.kind === 'memory') return randomBytes(32);
  if (database.kind === 'postgres')
    throw new ConfigError(
      'ID_NUMBER_KEY is required with DATABASE_URL: 32 random bytes as 64 hexadecimal characters (openssl rand -hex 32)',
    );
  const file = path.join(database.dataDir, KEY_FILE);
  if (existsSync(file)) {
    const key = parseIdNumberKey(readFileSync(file, 'utf8'));
    if (!key) throw new ConfigError(`${file} does not hold a key of 32 bytes`);
    return key;
  }
  const key = randomBytes(32);
  mkdirSync(database.dataDir, { recursive: true });
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600 });
  return key;
}
