import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets at rest and signatures, each under a key of its own derived from the one master key (`ID_NUMBER_KEY`) by
 * its purpose, so that no two uses share a key: `seal`/`open` with AES-256-GCM (a random IV per value), `sign`/`verify`
 * with HMAC-SHA-256.
 */
export interface SecretBox {
  seal(text: string): Buffer;
  open(sealed: Uint8Array): string;
  sign(text: string): string;
  verify(text: string, signature: string): boolean;
}

const IV = 12;
const TAG = 16;

export function createSecretBox(master: Buffer, purpose: string): SecretBox {
  const derive = (use: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `${purpose} ${use}`, 32));
  const encryptionKey = derive('encryption');
  const signingKey = derive('signature');
  const sign = (text: string) => createHmac('sha256', signingKey).update(text).digest('base64url');
  return {
    seal(text) {
      const iv = randomBytes(IV);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    open(sealed) {
      const data = Buffer.from(sealed);
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, data.subarray(0, IV));
      decipher.setAuthTag(data.subarray(IV, IV + TAG));
      return Buffer.concat([decipher.update(data.subarray(IV + TAG)), decipher.final()]).toString('utf8');
    },
    sign,
    verify(text, signature) {
      const expected = Buffer.from(sign(text));
      const given = Buffer.from(signature);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}
