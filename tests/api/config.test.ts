import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseEnv } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, envSchema, loadConfig, readEnvFiles } from '../../server/src/config';

describe('configuration', () => {
  const names = ['MEDU_TEST_A', 'MEDU_TEST_B', 'MEDU_TEST_C'];
  const dirs: string[] = [];
  afterEach(() => {
    for (const name of names) delete process.env[name];
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('reads .env and .env.local, the real environment first, then .env.local, then .env', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'medu-env-'));
    dirs.push(dir);
    writeFileSync(path.join(dir, '.env'), 'MEDU_TEST_A=env\nMEDU_TEST_B=env\nMEDU_TEST_C=env\n');
    writeFileSync(path.join(dir, '.env.local'), 'MEDU_TEST_B=local\nMEDU_TEST_C=local\n');
    process.env.MEDU_TEST_C = 'real';
    readEnvFiles(dir);
    expect([process.env.MEDU_TEST_A, process.env.MEDU_TEST_B, process.env.MEDU_TEST_C]).toEqual([
      'env',
      'local',
      'real',
    ]);
  });

  it("documents every variable the server reads in the README's configuration table", () => {
    const readme = readFileSync(path.resolve(__dirname, '../..', 'README.md'), 'utf8');
    const rows = new Set([...readme.matchAll(/^\| `([A-Z_]+)`/gm)].map((m) => m[1]));
    expect(Object.keys(envSchema.shape).filter((name) => !rows.has(name))).toEqual([]);
  });

  it('the repository .env holds documented defaults that validate', () => {
    const env = parseEnv(readFileSync(path.resolve(__dirname, '../../.env'), 'utf8'));
    expect(env).toEqual({
      PORT: '8000',
      DATA_DIR: './data',
      LOG_LEVEL: 'info',
      TRUST_PROXY: 'false',
      AUTH_CACHE_TTL_MS: '5000',
      AUTH_TOKEN_RATE_LIMIT: '20',
      DEMO_CONTENT: 'true',
    });
    expect(loadConfig(env)).toMatchObject({ port: 8000, dataDir: './data', logLevel: 'info', trustProxy: 0 });
  });

  it('takes the sign-in rate limit from AUTH_TOKEN_RATE_LIMIT (20 a minute unless set)', () => {
    expect(loadConfig({}).tokenRateLimit).toEqual({ windowMs: 60_000, max: 20 });
    expect(loadConfig({ AUTH_TOKEN_RATE_LIMIT: '500' }).tokenRateLimit).toEqual({ windowMs: 60_000, max: 500 });
    expect(() => loadConfig({ AUTH_TOKEN_RATE_LIMIT: '0' })).toThrow(/AUTH_TOKEN_RATE_LIMIT/);
  });

  it('takes the number of trusted proxies from TRUST_PROXY: false, true (one) or a number', () => {
    expect(loadConfig({}).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(0);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(() => loadConfig({ TRUST_PROXY: 'yes' })).toThrow(/TRUST_PROXY/);
    expect(() => loadConfig({ TRUST_PROXY: '-1' })).toThrow(/TRUST_PROXY/);
  });

  it('takes the length of a claim on a message from MESSAGE_CLAIM_SECONDS: two minutes unless set, never longer', () => {
    expect(loadConfig({}).messageClaimMs).toBe(120_000);
    expect(loadConfig({ MESSAGE_CLAIM_SECONDS: '20' }).messageClaimMs).toBe(20_000);
    expect(() => loadConfig({ MESSAGE_CLAIM_SECONDS: '600' })).toThrow(/MESSAGE_CLAIM_SECONDS/);
    expect(() => loadConfig({ MESSAGE_CLAIM_SECONDS: '5' })).toThrow(/MESSAGE_CLAIM_SECONDS/);
  });

  it('fills the demo tenant with demo content unless DEMO_CONTENT is false', () => {
    expect(loadConfig({}).demoContent).toBe(true);
    expect(loadConfig({ DEMO_CONTENT: 'false' }).demoContent).toBe(false);
    expect(() => loadConfig({ DEMO_CONTENT: 'no' })).toThrow(/DEMO_CONTENT/);
  });

  it('refuses a bad value with a message naming it', () => {
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(ConfigError);
    expect(() => loadConfig({ PORT: 'eighty' })).toThrow(/PORT/);
  });
});
