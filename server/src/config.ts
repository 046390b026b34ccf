import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(8000),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional()
    .or(z.literal('').transform(() => undefined)),
  LOG_LEVEL: z.enum(logLevels).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  AUTH_CACHE_TTL_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  AUTH_TOKEN_RATE_LIMIT: z.coerce.number().int().min(1).max(100_000).default(20),
});

export interface Config {
  port: number;
  dataDir: string;
  databaseUrl: string | undefined;
  logLevel: (typeof logLevels)[number];
  /** Take the client address from X-Forwarded-For (only behind a trusted proxy). */
  trustProxy: boolean;
  /** Requests per window and IP on POST /api/auth/token. */
  tokenRateLimit: { windowMs: number; max: number };
  /** argon2id cost; tests lower memoryCost to keep hashing fast. */
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
  /**
   * How long a resolved access token (user, session, permissions) is reused; 0 resolves it on every request. Writes
   * through this instance take effect at once; writes through another instance after this long at most.
   */
  authCacheTtlMs: number;
  /** The clock used for expiry and lockout decisions (tests move it). */
  now: () => Date;
}

export const defaultConfig: Config = {
  port: 8000,
  dataDir: './data',
  databaseUrl: undefined,
  logLevel: 'info',
  trustProxy: false,
  tokenRateLimit: { windowMs: 60_000, max: 20 },
  argon2: { memoryCost: 19_456, timeCost: 2, parallelism: 1 },
  authCacheTtlMs: 5_000,
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
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    authCacheTtlMs: e.AUTH_CACHE_TTL_MS,
    tokenRateLimit: { ...defaultConfig.tokenRateLimit, max: e.AUTH_TOKEN_RATE_LIMIT },
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
