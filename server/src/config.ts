import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
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
  ID_NUMBER_KEY_PREVIOUS: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const keys = v
        .split(',')
        .map((k) => k.trim())
        .filter(Boolean)
        .map(parseIdNumberKey);
      if (keys.some((k) => !k))
        ctx.addIssue({ code: 'custom', message: 'must be keys of 32 bytes (hexadecimal or base64), comma-separated' });
      return keys.filter((k): k is Buffer => k !== undefined);
    }),
  ID_NUMBER_KEY_FILE: z
    .string()
    .optional()
    .transform((v) => v?.trim() || undefined),
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
  /**
   * The master key of every secret at rest (core/seal.ts): ID numbers, stored credentials, signatures. Required on
   * PostgreSQL; on the embedded database read from (or made in) `idNumberKeyFile(config)`.
   */
  idNumberKey?: Buffer;
  /** During a key rotation, the keys before `idNumberKey`: what was sealed under them still opens. */
  previousIdNumberKeys: Buffer[];
  /** Where the embedded database's key is kept (`ID_NUMBER_KEY_FILE`), instead of the default of `idNumberKeyFile`. */
  idNumberKeyFile?: string;
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
  previousIdNumberKeys: [],
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
    previousIdNumberKeys: e.ID_NUMBER_KEY_PREVIOUS,
    idNumberKeyFile: e.ID_NUMBER_KEY_FILE,
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

/** Where the embedded database kept its key before it moved out of `DATA_DIR`. */
const KEY_IN_DATA_DIR = 'id-number.key';

/**
 * Where the embedded database's master key is kept: `ID_NUMBER_KEY_FILE` when set; else
 * `$XDG_CONFIG_HOME/medu-admin/keys/<data folder's name>-<8 hex of its absolute path>.key` (`~/.config/...` without
 * XDG_CONFIG_HOME): outside `DATA_DIR`, so that a copy of the data (or a backup of it) does not carry its key, and one
 * key per data folder. The one answer to "where is the key" (a backup leaves this file out).
 */
export function idNumberKeyFile(
  config: Pick<Config, 'dataDir' | 'idNumberKeyFile'>,
  env: NodeJS.ProcessEnv = process.env,
): string {
  if (config.idNumberKeyFile) return path.resolve(config.idNumberKeyFile);
  const dataDir = path.resolve(config.dataDir);
  const base = env.XDG_CONFIG_HOME?.trim() || path.join(homedir(), '.config');
  const tag = createHash('sha256').update(dataDir).digest('hex').slice(0, 8);
  return path.join(base, 'medu-admin', 'keys', `${path.basename(dataDir) || 'data'}-${tag}.key`);
}

/** The previous keys kept beside a key file during a rotation (`<file>.previous`, one a line). */
export const previousKeyFile = (file: string) => `${file}.previous`;

function readKeys(file: string): Buffer[] {
  const lines = readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const keys = lines.map(parseIdNumberKey);
  if (keys.length === 0 || keys.some((k) => !k)) throw new ConfigError(`${file} does not hold keys of 32 bytes`);
  return keys as Buffer[];
}

export function writeKeyFile(file: string, keys: readonly Buffer[]): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, keys.map((k) => `${k.toString('hex')}\n`).join(''), { mode: 0o600 });
  renameSync(temporary, file);
}

function moveKeyFile(from: string, to: string): void {
  mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
  try {
    renameSync(from, to);
  } catch {
    // another file system: copied, then removed
    copyFileSync(from, to);
    rmSync(from);
  }
}

/** A database folder of the embedded engine that holds data (db/database.ts keeps it in `<DATA_DIR>/pgdata`). */
const holdsData = (dataDir: string) => existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'));

/**
 * The master key: the configured one (`ID_NUMBER_KEY`); else the key file (`ID_NUMBER_KEY_FILE`, or on the embedded
 * database `idNumberKeyFile`'s default); else, on the embedded database only, a key made and kept there on the first
 * start (readable by its owner only), or a key of the process for an in-memory database.
 *
 * A key an earlier version kept inside `DATA_DIR` (`id-number.key`) is moved to the key file, and the move said: the
 * data keep opening, and a copy of the data folder no longer carries its key. An embedded database that holds data
 * but has no key refuses to start (a new key would leave every sealed value unreadable); so does PostgreSQL without a
 * configured key (a key made on one server would leave the others unable to read the numbers).
 */
export function resolveIdNumberKey(
  configured: Buffer | undefined,
  database: DatabaseOptions,
  options: { keyFile?: string; log?: (line: string) => void; env?: NodeJS.ProcessEnv } = {},
): Buffer {
  if (configured) return configured;
  if (database.kind === 'memory') return randomBytes(32);
  if (database.kind === 'postgres') {
    if (options.keyFile && existsSync(options.keyFile)) return readKeys(options.keyFile)[0] as Buffer;
    throw new ConfigError(
      'ID_NUMBER_KEY is required with DATABASE_URL: 32 random bytes as 64 hexadecimal characters (openssl rand -hex 32), or ID_NUMBER_KEY_FILE naming a file that holds them',
    );
  }
  const file = idNumberKeyFile({ dataDir: database.dataDir, idNumberKeyFile: options.keyFile }, options.env);
  const inDataDir = path.join(database.dataDir, KEY_IN_DATA_DIR);
  if (!existsSync(file) && existsSync(inDataDir)) {
    moveKeyFile(inDataDir, file);
    options.log?.(`the ID-number key moved out of DATA_DIR: ${inDataDir} → ${file} (ID_NUMBER_KEY_FILE)`);
  }
  if (existsSync(file)) return readKeys(file)[0] as Buffer;
  if (holdsData(database.dataDir))
    throw new ConfigError(
      `${path.resolve(database.dataDir)} holds data but its key is missing: set ID_NUMBER_KEY, or put the key file at ${file} (or name it in ID_NUMBER_KEY_FILE)`,
    );
  const key = randomBytes(32);
  writeKeyFile(file, [key]);
  options.log?.(`a new ID-number key is kept at ${file}: keep it (and a copy apart from the backups)`);
  return key;
}

/** The key `resolveIdNumberKey` would give, without making or moving one: `undefined` when none is configured or kept. */
export function findIdNumberKey(
  config: Pick<Config, 'idNumberKey' | 'idNumberKeyFile'>,
  database: DatabaseOptions,
): Buffer | undefined {
  if (config.idNumberKey || database.kind === 'memory') return config.idNumberKey;
  const file =
    database.kind === 'pglite'
      ? idNumberKeyFile({ dataDir: database.dataDir, idNumberKeyFile: config.idNumberKeyFile })
      : config.idNumberKeyFile;
  return file && existsSync(file) ? readKeys(file)[0] : undefined;
}

/** The keys still accepted during a rotation: `ID_NUMBER_KEY_PREVIOUS`, then those kept beside the key file. */
export function resolvePreviousKeys(configured: readonly Buffer[], keyFile: string | undefined): Buffer[] {
  if (!keyFile) return [...configured];
  // a key file's lines after the first, then <file>.previous
  const inFile = existsSync(keyFile) ? readKeys(keyFile).slice(1) : [];
  const kept = existsSync(previousKeyFile(keyFile)) ? readKeys(previousKeyFile(keyFile)) : [];
  return [...configured, ...inFile, ...kept];
}

/**
 * The key ring of a configuration on `database`: the master key (`resolveIdNumberKey`) and, during a rotation, the
 * previous keys (`ID_NUMBER_KEY_PREVIOUS`, or beside a key file, `<file>.previous`).
 */
export function resolveKeys(
  config: Pick<Config, 'idNumberKey' | 'previousIdNumberKeys' | 'idNumberKeyFile'>,
  database: DatabaseOptions,
  log?: (line: string) => void,
): { idNumberKey: Buffer; previousIdNumberKeys: Buffer[] } {
  const idNumberKey = resolveIdNumberKey(config.idNumberKey, database, { keyFile: config.idNumberKeyFile, log });
  const keyFile =
    config.idNumberKey || database.kind === 'memory'
      ? undefined
      : database.kind === 'pglite'
        ? idNumberKeyFile({ dataDir: database.dataDir, idNumberKeyFile: config.idNumberKeyFile })
        : config.idNumberKeyFile;
  return { idNumberKey, previousIdNumberKeys: resolvePreviousKeys(config.previousIdNumberKeys, keyFile) };
}
