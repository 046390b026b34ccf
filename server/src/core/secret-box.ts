import { createSealer, createSigner, type KeyRing, keyRingOf, type Sealer, type Signer } from './seal';

/**
 * Secrets at rest and signatures of one purpose (core/seal.ts): `seal`/`open` with AES-256-GCM, `sign`/`verify` with
 * HMAC-SHA-256, each under a key derived from the master key by the purpose and the use.
 */
export interface SecretBox extends Sealer, Signer {}

export function createSecretBox(keys: KeyRing | Buffer, purpose: string): SecretBox {
  const ring = Buffer.isBuffer(keys) ? keyRingOf(keys) : keys;
  return { ...createSealer(ring, `${purpose} encryption`), ...createSigner(ring, `${purpose} signature`) };
}
