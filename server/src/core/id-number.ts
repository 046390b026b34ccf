import { createBlindIndex, createSealer, type KeyRing, keyRingOf } from './seal';

/**
 * ID numbers at rest (docs/domain.md §4.3): sealed (core/seal.ts), and a keyed hash (HMAC-SHA-256, a blind index) to
 * find and keep unique a person by number without decrypting anything. Both keys derive from the master key
 * (`ID_NUMBER_KEY`), so neither is the other. During a key rotation a number is looked up by its hash under every key
 * of the ring (`hashes`), since rows not yet re-sealed keep the hash of the previous key.
 */
export interface IdNumberCipher {
  encrypt(idNo: string): Buffer;
  decrypt(sealed: Uint8Array): string;
  /** The text, and whether it is sealed under the current key in the current format. */
  inspect(sealed: Uint8Array): { text: string; current: boolean };
  hash(idNo: string): Buffer;
  hashes(idNo: string): Buffer[];
}

/** An ID number as it is compared: trimmed, letters upper-case (the check character `x` is `X`). */
export const normaliseIdNo = (idNo: string) => idNo.trim().toUpperCase();

export function createIdNumberCipher(keys: KeyRing | Buffer): IdNumberCipher {
  const ring = Buffer.isBuffer(keys) ? keyRingOf(keys) : keys;
  const sealer = createSealer(ring, 'id-number encryption');
  const index = createBlindIndex(ring, 'id-number hash');
  return {
    encrypt: (idNo) => sealer.seal(normaliseIdNo(idNo)),
    decrypt: (sealed) => sealer.open(sealed),
    inspect: (sealed) => sealer.inspect(sealed),
    hash: (idNo) => index.hash(normaliseIdNo(idNo)),
    hashes: (idNo) => index.hashes(normaliseIdNo(idNo)),
  };
}

/** `110101199003071234` → `1101**********1234`: the first and last four characters, the rest starred. */
export function maskIdNo(idNo: string): string {
  const n = normaliseIdNo(idNo);
  if (n.length <= 8) return `${n.slice(0, 1)}${'*'.repeat(Math.max(n.length - 2, 0))}${n.slice(-1)}`;
  return `${n.slice(0, 4)}${'*'.repeat(n.length - 8)}${n.slice(-4)}`;
}
