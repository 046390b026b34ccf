import { z } from '@hono/zod-openapi';
import { formatRule } from '../../../core/validation';

/**
 * The kinds of custom field a trainee type may define (docs/domain.md §4.8), and what a value of each is: one rule per
 * kind, read to check a field's default value now and a trainee's `custom_fields` when trainees are written.
 */
export const FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  'integer',
  'date',
  'datetime',
  'date_range',
  'select',
  'multi_select',
  'radio',
  'checkbox',
  'switch',
  'dict',
  'dict_multi',
  'district',
  'org',
  'unit',
  'file',
  'image',
  'id_card',
  'mobile',
  'email',
  'url',
  'rich_text',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Kinds whose values are one or several items of a dictionary (`dictTypeCode`). */
export const DICT_TYPES: readonly FieldType[] = ['dict', 'dict_multi'];
/** Kinds whose values are one or several of the field's own options. */
export const OPTION_TYPES: readonly FieldType[] = ['select', 'multi_select', 'radio', 'checkbox'];
const MULTIPLE: readonly FieldType[] = ['multi_select', 'checkbox'];
const TEXTUAL: readonly FieldType[] = ['text', 'textarea', 'rich_text'];

export const FieldOption = z
  .object({ value: z.string().trim().min(1).max(50), label: z.string().trim().min(1).max(100) })
  .strict();
export type FieldOption = z.infer<typeof FieldOption>;

/** Bounds a field may set on its values (Moodle's param1..5, named). */
export const FieldValidation = z
  .object({
    min: z.number().finite().optional(),
    max: z.number().finite().optional(),
    minLength: z.number().int().min(0).max(10_000).optional(),
    maxLength: z.number().int().min(1).max(10_000).optional(),
    pattern: z
      .string()
      .max(200)
      .refine((source) => {
        try {
          new RegExp(source);
          return true;
        } catch {
          return false;
        }
      }, formatRule('regExp'))
      .optional(),
    patternMessage: z.string().max(100).optional(),
    precision: z.number().int().min(0).max(6).optional(),
    fileTypes: z.array(z.string().trim().min(1).max(20)).max(20).optional(),
    maxSizeMb: z.number().positive().max(1024).optional(),
    maxCount: z.number().int().min(1).max(50).optional(),
  })
  .strict();
export type FieldValidation = z.infer<typeof FieldValidation>;

/** What the value rule of a field reads of its definition. */
export interface FieldRule {
  fieldType: FieldType;
  options?: FieldOption[] | null;
  validation?: FieldValidation | null;
}

const ID_WEIGHTS = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2];
const ID_CHECKS = '10X98765432';

/** A resident identity card number (GB 11643-1999): 17 digits and the check character of their weighted sum. */
export function isIdCardNo(value: string): boolean {
  if (!/^\d{17}[\dX]$/.test(value)) return false;
  const sum = ID_WEIGHTS.reduce((total, weight, i) => total + weight * Number(value[i]), 0);
  return ID_CHECKS[sum % 11] === value[17];
}

const date = z.iso.date();

/** The rule a value of `field` must keep (not whether it is required: an absent value is the form's business). */
export function valueRule(field: FieldRule): z.ZodType {
  const v = field.validation ?? {};
  const values = (field.options ?? []).map((o) => o.value);
  const bounded = (rule: z.ZodNumber) => {
    let r = rule;
    if (v.min !== undefined) r = r.min(v.min);
    if (v.max !== undefined) r = r.max(v.max);
    return r;
  };
  const text = () => {
    let r = z.string().trim();
    if (v.minLength !== undefined) r = r.min(v.minLength);
    r = r.max(v.maxLength ?? (field.fieldType === 'text' ? 200 : 10_000));
    if (v.pattern) r = r.regex(new RegExp(v.pattern), v.patternMessage);
    return r;
  };
  const dictValue = z.string().trim().min(1).max(50);
  const files = z
    .array(z.string().regex(/^[1-9]\d{0,18}$/))
    .min(1)
    .max(v.maxCount ?? 10);
  if (TEXTUAL.includes(field.fieldType)) return text();
  if (OPTION_TYPES.includes(field.fieldType)) {
    const one = z.enum(values.length ? (values as [string, ...string[]]) : ['']);
    return MULTIPLE.includes(field.fieldType)
      ? z
          .array(one)
          .max(values.length)
          .refine((list) => new Set(list).size === list.length, formatRule('duplicate'))
      : one;
  }
  switch (field.fieldType) {
    case 'number':
      return bounded(z.number().finite());
    case 'integer':
      return bounded(z.number().int().min(-2_147_483_648).max(2_147_483_647));
    case 'date':
      return date;
    case 'datetime':
      return z.iso.datetime({ offset: true });
    case 'date_range':
      return z.tuple([date, date]).refine(([from, to]) => from <= to, formatRule('order'));
    case 'switch':
      return z.boolean();
    case 'dict':
      return dictValue;
    case 'dict_multi':
      return z
        .array(dictValue)
        .min(1)
        .max(100)
        .refine((list) => new Set(list).size === list.length, formatRule('duplicate'));
    case 'district':
      return z.string().regex(/^(\d{6}|\d{9})$/);
    case 'org':
    case 'unit':
      return z.string().regex(/^[1-9]\d{0,18}$/);
    case 'file':
    case 'image':
      return files;
    case 'id_card':
      return z.string().trim().toUpperCase().refine(isIdCardNo, formatRule('idCardNo'));
    case 'mobile':
      return z.string().regex(/^1[3-9]\d{9}$/);
    case 'email':
      return z.email().max(100);
    default:
      return z.url({ protocol: /^https?$/ }).max(500);
  }
}
