import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

/**
 * ID numbers at rest (docs/domain.md §4.3): encrypted with AES-256-GCM (a random IV per value), and a keyed hash
 * (HMAC-SHA-256) to find and keep unique a person by number without decrypting anything. Both keys derive from one
 * master key (`ID_NUMBER_KEY`), so neither is the other.
 */
export interface IdNumberCipher {
  encrypt(idNo: string): Buffer;
  decrypt(sealed: Uint8Array): string;
  hash(idNo: string): Buffer;
}

const IV = 12;
const TAG = 16;

/** An ID number as it is compared: trimmed, letters upper-case (the check character `x` is `X`). */
export const normaliseIdNo = (idNo: string) => idNo.trim().toUpperCase();

export function createIdNumberCipher(master: Buffer): IdNumberCipher {
  const derive = (purpose: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), purpose, 32));
  const encryptionKey = derive('id-number encryption');
  const hashKey = derive('id-number hash');
  return {
    encrypt(idNo) {
      const iv = randomBytes(IV);
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
      const body = Buffer.concat([cipher.update(normaliseIdNo(idNo), 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    decrypt(sealed) {
      const data = Buffer.from(sealed);
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, data.subarray(0, IV));
      decipher.setAuthTag(data.subarray(IV, IV + TAG));
      return Buffer.concat([decipher.update(data.subarray(IV + TAG)), decipher.final()]).toString('utf8');
    },
    hash: (idNo) => createHmac('sha256', hashKey).update(normaliseIdNo(idNo)).digest(),
  };
}

/** `110101199003071234` → `1101**********1234`: the first and last four characters, the rest starred. */
export function maskIdNo(idNo: string): string {
  const n = normaliseIdNo(idNo);
  if (n.length <= 8) return `${n.slice(0, 1)}${'*'.repeat(Math.max(n.length - 2, 0))}${n.slice(-1)}`;
  return `${n.slice(0, 4)}${'*'.repeat(n.length - 8)}${n.slice(-4)}`;
}
