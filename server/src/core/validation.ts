import type { z } from 'zod';
import { AppError, type FieldError, invalidField } from './errors';
import type { Lang } from './i18n';

type Issue = z.core.$ZodIssue;

const REFUSED_CHARACTER = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Deeper values are refused before they reach a schema or a jsonb column (PostgreSQL's stack limit). */
const MAX_DEPTH = 32;

const typeNames: Record<Lang, Record<string, string>> = {
  'zh-CN': {
    string: '文本',
    number: '数字',
    int: '整数',
    bigint: '整数',
    boolean: '布尔值',
    object: '对象',
    array: '数组',
    date: '日期',
  },
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

/**
 * Words for the format rules of the schemas, in both languages (the console says the same): a rejected value is told
 * what is accepted, never shown the pattern. A schema names its rule: `.regex(pattern, formatRule('phone'))`.
 */
const formatRules = {
  'zh-CN': {
    tenantCode: '以小写字母开头，由 2–32 位小写字母、数字或 - 组成',
    userName: '以字母或数字开头，只能包含字母、数字和 . _ @ -',
    phone: '请填写有效的电话号码：数字，可带 + 前缀，可用空格或 - 分隔',
    hostName: '请填写有效的域名，例如 hospital.example.cn',
    dictTypeCode: '以小写字母开头，由 2–100 位小写字母、数字或 _ 组成',
    tagColor: '请选择一种标签颜色，或填写 #rrggbb 形式的颜色',
    errorCodeKey: '用点分隔的几段名称，每段以小写字母开头，例如 trainee.idNo.duplicate',
    module: '以小写字母开头，只能包含小写字母、数字和 -',
    industryCode: '门类字母（A–T）或 2–4 位数字代码',
    businessItemKey: '用点分隔的几段小写名称，例如 paper.published',
    permissionCode: '由冒号分隔的三段：模块:对象:操作，例如 system:admin:create',
    path: '以 / 开头',
    localeKey: '只能包含字母、数字和 . _ -',
    districtCode: '6 位数字（省、市、县）或 9 位数字（乡镇）',
    roleCode: '以小写字母开头，只能包含小写字母、数字、_ 和 -',
    clientId: '只能包含字母、数字和 . _ -',
    orgCode: '以字母或数字开头，只能包含字母、数字和 . _ -',
    creditCode: '请填写有效的 18 位统一社会信用代码（校验位不符）',
    traineeNoPattern: '字母、数字、_ 或 -，加上 {yyyy}、{yy} 和恰好一个 {seq:位数}，例如 R{yyyy}{seq:5}',
    fieldKey: '以小写字母开头，只能包含小写字母、数字和 _',
    regExp: '请填写有效的正则表达式',
    idCardNo: '请填写有效的 18 位居民身份证号码（校验位不符）',
    order: '开始日期不能晚于结束日期',
    duplicate: '不能重复',
    idNo: '证件号码只能包含数字、字母、括号和 -',
    mobile: '请填写 11 位手机号码',
    year: '应为四位数字的年份，例如 2026',
    bucket: '3–63 位小写字母、数字、. 或 -，以字母或数字开头和结尾',
    basePath: '相对路径：由字母、数字、. _ - 组成的各级目录，用 / 分隔，不能含 ..',
    mimeType: '类型/子类型，例如 image/png',
    wechatAppId: 'wx 加 16 位小写十六进制字符，例如 wx0123456789abcdef',
    wechatSecret: '16–64 位字母或数字',
    wechatToken: '3–32 位字母或数字',
    wechatAesKey: '43 位字母或数字',
  },
  'en-US': {
    tenantCode: 'a lower-case letter, then 1–31 lower-case letters, digits or -',
    userName: 'starts with a letter or digit; letters, digits and . _ @ - only',
    phone: 'a phone number: digits, optionally a leading +, spaces or -',
    hostName: 'a host name, e.g. hospital.example.com',
    dictTypeCode: 'a lower-case letter, then 1–99 lower-case letters, digits or _',
    tagColor: 'a tag colour, or a colour written #rrggbb',
    errorCodeKey: 'dotted names, each starting with a lower-case letter, e.g. trainee.idNo.duplicate',
    module: 'starts with a lower-case letter; lower-case letters, digits and - only',
    industryCode: 'a section letter (A–T) or a 2–4 digit division, group or class code',
    businessItemKey: 'dotted lower-case names, e.g. paper.published',
    permissionCode: 'three parts separated by colons, area:entity:action, e.g. system:admin:create',
    path: 'starts with /',
    localeKey: 'letters, digits and . _ - only',
    districtCode: '6 digits (province, city, county) or 9 (township)',
    roleCode: 'starts with a lower-case letter; lower-case letters, digits, _ and - only',
    clientId: 'letters, digits and . _ - only',
    orgCode: 'starts with a letter or digit; letters, digits and . _ - only',
    creditCode: 'an 18-character unified social credit code whose check character matches',
    traineeNoPattern: 'letters, digits, _ or -, with {yyyy}, {yy} and exactly one {seq:digits}, e.g. R{yyyy}{seq:5}',
    fieldKey: 'starts with a lower-case letter; lower-case letters, digits and _ only',
    regExp: 'a valid regular expression',
    idCardNo: 'an 18-character resident identity card number whose check character matches',
    order: 'the start must not be after the end',
    duplicate: 'must not repeat',
    idNo: 'digits, letters, brackets and - only',
    mobile: 'an 11-digit mobile number',
    year: 'must be a year, such as 2026',
    bucket: '3–63 lower-case letters, digits, . or -, starting and ending with a letter or digit',
    basePath: 'a relative path: folders of letters, digits and . _ - separated by /, no ..',
    mimeType: 'type/subtype, e.g. image/png',
    wechatAppId: 'wx and 16 lower-case hexadecimal characters, e.g. wx0123456789abcdef',
    wechatSecret: '16–64 letters or digits',
    wechatToken: '3–32 letters or digits',
    wechatAesKey: '43 letters or digits',
  },
} satisfies Record<Lang, Record<string, string>>;

export type FormatRule = keyof (typeof formatRules)['en-US'];

/** The message argument of `.regex()` that names a rule of `formatRules`. */
export const formatRule = (rule: FormatRule): string => rule;

/** What a rule of `formatRules` says, for a check made outside a schema (a service's). */
export const formatText = (rule: FormatRule, lang: Lang): string => formatRules[lang][rule];

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
      return issue.origin === 'string' || issue.origin === 'array'
        ? t.tooShort(issue.minimum)
        : t.tooSmall(issue.minimum);
    case 'invalid_format':
      return (formatRules[lang] as Record<string, string>)[issue.message] ?? t.format;
    // a rule no pattern can say (a check digit) names its format rule the same way: `.refine(check, formatRule(…))`
    case 'custom':
      return (formatRules[lang] as Record<string, string>)[issue.message] ?? issue.message;
    case 'invalid_value':
      return t.value(issue.values as unknown[]);
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
      for (const key of issue.keys)
        fields.push({ field: base ? `${base}.${key}` : key, message: texts[lang].unknownField });
    } else if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const firstBranch = issue.errors[0] ?? [];
      fields.push(
        ...issuesToFields(
          firstBranch.map((i) => ({ ...i, path: [...issue.path, ...i.path] }) as Issue),
          lang,
          input,
        ),
      );
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
  return invalidField('body', texts[lang].malformed);
}
