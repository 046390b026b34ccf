import type { z } from 'zod';
import { AppError, type FieldError } from './errors';
import type { Lang } from './i18n';

type Issue = z.core.$ZodIssue;

const texts = {
  'zh-CN': {
    required: '不能为空',
    type: (expected: string) => `类型不正确，应为 ${expected}`,
    tooLong: (max: unknown) => `长度不能超过 ${max}`,
    tooShort: (min: unknown) => `长度不能少于 ${min}`,
    tooBig: (max: unknown) => `不能大于 ${max}`,
    tooSmall: (min: unknown) => `不能小于 ${min}`,
    unknownField: '不允许的字段',
    format: '格式不正确',
    value: (values: unknown[]) => `取值应为 ${values.join(' / ')} 之一`,
    invalid: '取值不正确',
    malformed: '请求体不是有效的 JSON',
  },
  'en-US': {
    required: 'is required',
    type: (expected: string) => `must be of type ${expected}`,
    tooLong: (max: unknown) => `must be at most ${max} characters`,
    tooShort: (min: unknown) => `must be at least ${min} characters`,
    tooBig: (max: unknown) => `must be at most ${max}`,
    tooSmall: (min: unknown) => `must be at least ${min}`,
    unknownField: 'is not an allowed field',
    format: 'has an invalid format',
    value: (values: unknown[]) => `must be one of ${values.join(' / ')}`,
    invalid: 'is invalid',
    malformed: 'the request body is not valid JSON',
  },
};

function describe(issue: Issue, lang: Lang): string {
  const t = texts[lang];
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? t.required : t.type(issue.expected);
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

export function issuesToFields(issues: readonly Issue[], lang: Lang): FieldError[] {
  const fields: FieldError[] = [];
  for (const issue of issues) {
    const base = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) fields.push({ field: base ? `${base}.${key}` : key, message: texts[lang].unknownField });
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const firstBranch = issue.errors[0] ?? [];
      fields.push(...issuesToFields(firstBranch.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as Issue), lang));
    } else {
      fields.push({ field: base || 'body', message: describe(issue, lang) });
    }
  }
  return fields;
}

export function validationError(issues: readonly Issue[], lang: Lang): AppError {
  return new AppError('common.validation', {}, issuesToFields(issues, lang));
}

export function malformedBodyError(lang: Lang): AppError {
  return new AppError('common.validation', {}, [{ field: 'body', message: texts[lang].malformed }]);
}
