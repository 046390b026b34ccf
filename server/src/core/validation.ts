import type { z } from 'zod';
import { AppError, type FieldError } from './errors';
import type { Lang } from './i18n';

type Issue = z.core.$ZodIssue;

const REFUSED_CHARACTER = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Deeper values are refused before they reach a schema or a jsonb column (PostgreSQL's stack limit). */
const MAX_DEPTH = 32;

const typeNames: Record<Lang, Record<string, string>> = {
  'zh-CN': { string: '文本', number: '数字', int: '整数', bigint: '整数', boolean: '布尔值', object: '对象', array: '数组', date: '日期' },
  'en-US': {
    string: 'text',
    number: 'a number',
    int: 'an integer',
    bigint: 'an integer',
    boolean: 'true or false',
    object: 'an object',
    array: 'a list',
    date: 'a date',
  },
};

const texts = {
  'zh-CN': {
    required: '不能为空',
    type: (expected: string) => `类型不正确，应为${typeNames['zh-CN'][expected] ?? expected}`,
    tooLong: (max: unknown) => `长度不能超过 ${max}`,
    tooShort: (min: unknown) => `长度不能少于 ${min}`,
    tooBig: (max: unknown) => `不能大于 ${max}`,
    tooSmall: (min: unknown) => `不能小于 ${min}`,
    unknownField: '不允许的字段',
    format: '格式不正确',
    value: (values: unknown[]) => `取值应为 ${values.join(' / ')} 之一`,
    invalid: '取值不正确',
    malformed: '请求体不是有效的 JSON',
    refusedCharacter: '含有不允许的字符（如空字符）',
    tooDeep: `嵌套层数不能超过 ${MAX_DEPTH}`,
  },
  'en-US': {
    required: 'is required',
    type: (expected: string) => `expected ${typeNames['en-US'][expected] ?? expected}`,
    tooLong: (max: unknown) => `must be at most ${max} characters`,
    tooShort: (min: unknown) => `must be at least ${min} characters`,
    tooBig: (max: unknown) => `must be at most ${max}`,
    tooSmall: (min: unknown) => `must be at least ${min}`,
    unknownField: 'is not an allowed field',
    format: 'has an invalid format',
    value: (values: unknown[]) => `must be one of ${values.join(' / ')}`,
    invalid: 'is invalid',
    malformed: 'the request body is not valid JSON',
    refusedCharacter: 'contains a character that is not allowed (such as NUL)',
    tooDeep: `must not be nested more than ${MAX_DEPTH} levels deep`,
  },
};

/** The raw value at a path of the input; zod does not keep it in its issues. */
function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

function describe(issue: Issue, lang: Lang, input: unknown): string {
  const t = texts[lang];
  switch (issue.code) {
    case 'invalid_type':
      return valueAt(input, issue.path) === undefined ? t.required : t.type(issue.expected);
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array' ? t.tooLong(issue.maximum) : t.tooBig(issue.maximum);
    case 'too_small':
      if ((issue.origin === 'string' || issue.origin === 'array') && issue.minimum === 1) return t.required;
      return issue.origin === 'string' || issue.origin === 'array' ? t.tooShort(issue.minimum) : t.tooSmall(issue.minimum);
    case 'invalid_format':
      return t.format;
    case 'invalid_value':
      return t.value(issue.values as unknown[]);
    case 'custom':
      return issue.message;
    default:
      return t.invalid;
  }
}

/** `input`: what was parsed, so that a value of the wrong type is told apart from a missing one. */
export function issuesToFields(issues: readonly Issue[], lang: Lang, input?: unknown): FieldError[] {
  const fields: FieldError[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields.push({ field: base ? `${base}.${key}` : key, message: texts[lang].unknownField });
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const firstBranch = issue.errors[0] ?? [];
      fields.push(...issuesToFields(firstBranch.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as Issue), lang, input));
    } else {
      fields.push({ field: base || 'body', message: describe(issue, lang, input) });
    }
  }
  return fields;
}

export function validationError(issues: readonly Issue[], lang: Lang, input: unknown): AppError {
  return new AppError('common.validation', {}, issuesToFields(issues, lang, input));
}

/**
 * Fields of a request value that no column can store: text with NUL (PostgreSQL refuses it in text and jsonb) or an
 * unpaired surrogate (it cannot be encoded as UTF-8), in values or keys, and nesting beyond MAX_DEPTH. Iterative, so
 * hostile nesting cannot overflow the stack.
 */
export function refusedValueFields(input: unknown, lang: Lang): FieldError[] {
  const t = texts[lang];
  const fields: FieldError[] = [];
  const pending: { value: unknown; path: string[] }[] = [{ value: input, path: [] }];
  while (pending.length > 0 && fields.length < 20) {
    const { value, path } = pending.pop() as { value: unknown; path: string[] };
    const field = path.join('.') || 'body';
    if (typeof value === 'string') {
      if (REFUSED_CHARACTER.test(value)) fields.push({ field, message: t.refusedCharacter });
    } else if (value !== null && typeof value === 'object' && !(value instanceof Blob)) {
      if (path.length >= MAX_DEPTH) {
        fields.push({ field, message: t.tooDeep });
        continue;
      }
      for (const [key, item] of Object.entries(value)) {
        if (REFUSED_CHARACTER.test(key)) fields.push({ field: [...path, key].join('.'), message: t.refusedCharacter });
        else pending.push({ value: item, path: [...path, key] });
      }
    }
  }
  return fields;
}

export function malformedBodyError(lang: Lang): AppError {
  return new AppError('common.validation', {}, [{ field: 'body', message: texts[lang].malformed }]);
}
