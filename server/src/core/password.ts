import { hash, verify } from '@node-rs/argon2';
import type { Config } from '../config';

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
}

/** argon2id (the library's default algorithm) with the configured cost. */
export function createPasswordHasher(cost: Config['argon2']): PasswordHasher {
  return {
    hash: (password) => hash(password, cost),
    verify: async (passwordHash, password) => {
      try {
        return await verify(passwordHash, password);
      } catch {
        return false;
      }
    },
  };
}

export interface PasswordPolicy {
  minLength: number;
  requireLetterAndDigit: boolean;
}

export function meetsPasswordPolicy(password: string, policy: PasswordPolicy): boolean {
  if (password.length < policy.minLength) return false;
  return !policy.requireLetterAndDigit || (/[A-Za-z]/.test(password) && /\d/.test(password));
}
