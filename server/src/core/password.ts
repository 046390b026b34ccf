import { hash, verify } from '@node-rs/argon2';
import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';
import type { Config } from '../config';
import { AppError } from './errors';

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
  /** zxcvbn's score, 0 (guessable in a few attempts) to 4 (beyond 10^10 guesses). */
  minScore: number;
}

const strength = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...en.dictionary },
  graphs: common.adjacencyGraphs,
  translations: en.translations,
});

/**
 * The one password check, shared by every place that sets a password: length, letters and digits, zxcvbn's score
 * (the user name, tenant and other `context` count as guessable words), and never the user name itself. The error
 * names `field`; undefined when the password is acceptable.
 */
export function passwordPolicyError(
  password: string,
  policy: PasswordPolicy,
  who: { username: string; field: string; context?: string[] },
): AppError | undefined {
  const fields = [{ field: who.field, message: '' }];
  const username = who.username.trim().toLowerCase();
  if (username && password.toLowerCase().includes(username))
    return new AppError('auth.passwordContainsUsername', {}, fields);
  if (
    password.length < policy.minLength ||
    (policy.requireLetterAndDigit && !(/[A-Za-z]/.test(password) && /\d/.test(password)))
  ) {
    return new AppError('auth.passwordPolicy', { minLength: policy.minLength }, fields);
  }
  if (strength.check(password, [username, ...(who.context ?? [])]).score < policy.minScore) {
    return new AppError('auth.passwordTooWeak', { minScore: policy.minScore }, fields);
  }
  return undefined;
}
