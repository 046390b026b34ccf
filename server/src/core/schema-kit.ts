import { z } from '@hono/zod-openapi';
import { Version } from './column-bounds';
import { YES_NO } from './resource/readable-cells';
import { formatRule } from './validation';

/**
 * The field rules the entities' schemas share, written once. A field here means the same rule everywhere it is used;
 * a field that only looks like one of these (another bound, no trim) keeps its own rule in its schema.
 */

/**
 * A stored record as the API answers it: its id, its own fields, then when it was made and last changed and the
 * version a write sends back (the audited columns every such table keeps).
 */
export const recordRow = <Fields extends z.ZodRawShape>(fields: Fields) =>
  z.object({
    id: z.string(),
    ...fields,
    createdAt: z.string(),
    updatedAt: z.string().nullable(),
    version: z.number().int(),
  });

/** A request body of exactly these fields (any other is refused), published in the OpenAPI document as `name`. */
export const requestBody = <Fields extends z.ZodRawShape>(name: string, fields: Fields) =>
  z.object(fields).strict().openapi(name);

/** An update: the fields it may change, and the `version` it read (a stale one is refused). */
export const updateBody = <Fields extends z.ZodRawShape>(name: string, fields: Fields) =>
  requestBody(name, { ...fields, version: Version });

/** The rules of the fields that many entities share. */
export const field = {
  /** The `common_status` of an entity that can be switched off. */
  status: z.enum(['enabled', 'disabled']),
  /** Text that must be given: trimmed, 1 to `max` characters. */
  requiredText: (max: number) => z.string().trim().min(1).max(max),
  /** Text that may be left out, or cleared with null. */
  optionalText: (max: number) => z.string().trim().max(max).nullable().optional(),
  /** A remark keeps its spacing and line breaks as written; it may be cleared. */
  remark: z.string().max(500).nullable().optional(),
  /** A record's code as people type it: letters and digits, then also `.`, `_` or `-`, up to `max` characters. */
  code: (max = 50) =>
    z
      .string()
      .trim()
      .min(1)
      .max(max)
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, formatRule('orgCode')),
  /** A place in a display order. */
  sortOrder: (max = 1_000_000) => z.number().int().min(0).max(max),
  /** An account's sign-in name, stored lower-case. */
  userName: z
    .string()
    .trim()
    .toLowerCase()
    .min(2)
    .max(50)
    .regex(/^[a-z0-9][a-z0-9._@-]*$/, formatRule('userName')),
  /** A phone number as people write it: digits, an optional leading +, spaces or dashes. */
  phone: z
    .string()
    .trim()
    .max(20)
    .regex(/^\+?[0-9][0-9 -]{4,19}$/, formatRule('phone')),
  /** An IANA time zone the runtime knows (`Asia/Shanghai`): whose clock a date is shown or counted on. */
  timeZone: z
    .string()
    .max(50)
    .regex(/^[A-Za-z]+(?:[/_+-][A-Za-z0-9]+)*$/)
    .refine((zone) => {
      try {
        new Intl.DateTimeFormat('en', { timeZone: zone });
        return true;
      } catch {
        return false;
      }
    }, 'is not a time zone'),
};

/** A create field as an import sheet's cell holds it: text, or nothing. */
function fromCell(declared: z.ZodType): z.ZodType {
  let rule = declared;
  let optional = false;
  while (rule instanceof z.ZodOptional || rule instanceof z.ZodNullable || rule instanceof z.ZodDefault) {
    if (!(rule instanceof z.ZodNullable)) optional = true;
    rule = rule.unwrap() as z.ZodType;
  }
  const cell =
    rule instanceof z.ZodNumber
      ? z.coerce.number().pipe(rule)
      : rule instanceof z.ZodBoolean
        ? z.stringbool(YES_NO)
        : rule;
  return optional ? cell.optional() : cell;
}

/**
 * One row of an import sheet, from the fields of the create request: the same rules, read from text cells (a number
 * from its text, a boolean from true/false, yes/no, 1/0 or 是/否). A field with a default is optional and stays unset when
 * its cell is empty, so an upsert does not reset what the sheet leaves out. `cells` replaces fields a cell cannot
 * hold as the request does (a list written as text).
 */
export function importRowOf(fields: z.ZodRawShape, cells: z.ZodRawShape = {}) {
  return z.object({
    ...Object.fromEntries(Object.entries(fields).map(([key, rule]) => [key, fromCell(rule as z.ZodType)])),
    ...cells,
  });
}
