import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * The one place that seals secrets at rest (AES-256-GCM, a random IV per value), signs (HMAC-SHA-256) and makes blind
 * indexes (a keyed hash to find a value without decrypting it), every use under a key of its own derived by HKDF from
 * the master key (`ID_NUMBER_KEY`) and the use's name, so that no two uses share a key.
 *
 * A sealed value names the key it was sealed under: `0x02 | key id (4 bytes) | IV (12) | tag (16) | ciphertext`, the
 * first five bytes authenticated with it. The key id is derived from the master key (`keyIdOf`), so a value tells which
 * key opens it and a rotation (`npm run rotate-key`) which values are still to re-seal. Values sealed before there were
 * versions (`IV | tag | ciphertext`, "version 1") still open: they are tried with every key of the ring.
 */

/** The format byte of a sealed value with a key id. */
export const SEALED_FORMAT = 2;
const ID = 4;
const HEAD = 1 + ID;
const IV = 12;
const TAG = 16;

/**
 * The master keys in force: `current` seals, signs and indexes; `previous` (during a rotation) still open, verify and
 * find what was made under them.
 */
export interface KeyRing {
  current: Buffer;
  previous: readonly Buffer[];
}

export class SealError extends Error {}

/** A ring from a configuration (`idNumberKey`, `previousIdNumberKeys`), or a single key. */
export function keyRingOf(keys: Buffer | { idNumberKey?: Buffer; previousIdNumberKeys?: readonly Buffer[] }): KeyRing {
  if (Buffer.isBuffer(keys)) return { current: keys, previous: [] };
  if (!keys.idNumberKey) throw new Error('the master key is resolved before the services (resolveIdNumberKey)');
  return { current: keys.idNumberKey, previous: keys.previousIdNumberKeys ?? [] };
}

const derive = (master: Buffer, info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));

/** The 4 bytes a value sealed under `master` starts with after its format byte. */
export const keyIdOf = (master: Buffer): Buffer => derive(master, 'key id').subarray(0, ID);

/** The key id (hex) a sealed value names, or undefined when it is of the format without one (version 1). */
export function keyVersionOf(sealed: Uint8Array): string | undefined {
  const data = Buffer.from(sealed);
  return data[0] === SEALED_FORMAT && data.length >= HEAD + IV + TAG
    ? data.subarray(1, HEAD).toString('hex')
    : undefined;
}

export interface Sealer {
  seal(text: string): Buffer;
  /** The text; a SealError when no key of the ring opens it. */
  open(sealed: Uint8Array): string;
  /** The text, and whether the value is sealed as `seal` would seal it now (this format, the current key). */
  inspect(sealed: Uint8Array): { text: string; current: boolean };
}

export function createSealer(ring: KeyRing, info: string): Sealer {
  const keys = [ring.current, ...ring.previous].map((master) => ({ id: keyIdOf(master), key: derive(master, info) }));
  const current = keys[0] as (typeof keys)[number];
  const header = Buffer.concat([Buffer.from([SEALED_FORMAT]), current.id]);
  const decrypt = (key: Buffer, data: Buffer, aad?: Buffer) => {
    const decipher = createDecipheriv('aes-256-gcm', key, data.subarray(0, IV));
    if (aad) decipher.setAAD(aad);
    decipher.setAuthTag(data.subarray(IV, IV + TAG));
    return Buffer.concat([decipher.update(data.subarray(IV + TAG)), decipher.final()]).toString('utf8');
  };
  const inspect = (sealed: Uint8Array) => {
    const data = Buffer.from(sealed);
    if (data[0] === SEALED_FORMAT && data.length >= HEAD + IV + TAG) {
      const id = data.subarray(1, HEAD);
      const match = keys.find((k) => k.id.equals(id));
      if (match)
        try {
          return { text: decrypt(match.key, data.subarray(HEAD), data.subarray(0, HEAD)), current: match === current };
        } catch {
          // a value of version 1 whose IV happens to start like this: tried below
        }
    }
    for (const k of keys)
      try {
        return { text: decrypt(k.key, data), current: false };
      } catch {
        // not this key
      }
    throw new SealError('no key of the ring opens this value (ID_NUMBER_KEY, ID_NUMBER_KEY_PREVIOUS)');
  };
  return {
    seal(text) {
      const iv = randomBytes(IV);
      const cipher = createCipheriv('aes-256-gcm', current.key, iv);
      cipher.setAAD(header);
      const body = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
      return Buffer.concat([header, iv, cipher.getAuthTag(), body]);
    },
    open: (sealed) => inspect(sealed).text,
    inspect,
  };
}

export interface Signer {
  /** Under the current key. */
  sign(text: string): string;
  /** Under any key of the ring: what was signed before a rotation still verifies while the previous key is kept. */
  verify(text: string, signature: string): boolean;
}

export function createSigner(ring: KeyRing, info: string): Signer {
  const keys = [ring.current, ...ring.previous].map((master) => derive(master, info));
  const signWith = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest('base64url');
  return {
    sign: (text) => signWith(keys[0] as Buffer, text),
    verify(text, signature) {
      const given = Buffer.from(signature);
      return keys.some((key) => {
        const expected = Buffer.from(signWith(key, text));
        return expected.length === given.length && timingSafeEqual(expected, given);
      });
    },
  };
}

export interface BlindIndex {
  /** Under the current key: what is stored. */
  hash(text: string): Buffer;
  /** Under every key of the ring, the current first: what a look-up matches while values are re-sealed. */
  hashes(text: string): Buffer[];
}

export function createBlindIndex(ring: KeyRing, info: string): BlindIndex {
  const keys = [ring.current, ...ring.previous].map((master) => derive(master, info));
  const hashWith = (key: Buffer, text: string) => createHmac('sha256', key).update(text).digest();
  return {
    hash: (text) => hashWith(keys[0] as Buffer, text),
    hashes: (text) => keys.map((key) => hashWith(key, text)),
  };
}
