/**
 * The unified social credit code (统一社会信用代码, GB 32100-2015): 18 characters of the alphabet below (digits and
 * capitals without I, O, S, V, Z): the registering authority, the kind of body, the six-digit district of
 * registration, the nine-character organisation code, and a check character computed from the other seventeen.
 */
const ALPHABET = '0123456789ABCDEFGHJKLMNPQRTUWXY';
const WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28];

export const CREDIT_CODE_SHAPE = /^[0-9A-HJ-NPQRTUWXY]{2}\d{6}[0-9A-HJ-NPQRTUWXY]{10}$/;

/** The check character of the code's first seventeen characters. */
export function creditCodeCheck(first17: string): string {
  const sum = [...first17].reduce((total, char, i) => total + ALPHABET.indexOf(char) * (WEIGHTS[i] ?? 0), 0);
  return ALPHABET[(31 - (sum % 31)) % 31] ?? '';
}

/** Whether `code` is a unified social credit code: its shape, and its last character the check of the others. */
export const isCreditCode = (code: string): boolean =>
  CREDIT_CODE_SHAPE.test(code) && creditCodeCheck(code.slice(0, 17)) === code[17];
