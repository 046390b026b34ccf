import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

/** 256 random bits, base64url; only its SHA-256 is stored. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** A key only the holder of `token` can derive: the database keeps the token's SHA-256, never the token. */
const keyOf = (token: string) => Buffer.from(hkdfSync('sha256', token, '', 'medu sealed with token', 32));

/** AES-256-GCM under a key derived from `token`: base64url of nonce, tag and ciphertext. */
export function sealWithToken(token: string, plaintext: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(token), nonce);
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url');
}

/** The plaintext, or undefined when `sealed` was not sealed with this token. */
export function unsealWithToken(token: string, sealed: string): string | undefined {
  const data = Buffer.from(sealed, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(token), data.subarray(0, 12));
    decipher.setAuthTag(data.subarray(12, 28));
    return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return undefined;
  }
}
