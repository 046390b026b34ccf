import { z } from '@hono/zod-openapi';
import { formatRule } from './validation';

/**
 * The field rules the entities' schemas share, written once. A field here means the same rule everywhere it is used;
 * a field that only looks like one of these (another bound, no trim) keeps its own rule in its schema.
 */

/** The `common_status` of an entity that can be switched off. */
export const STATUSES = ['enabled', 'disabled'] as const;
export const Status = z.enum(STATUSES);

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

/** Text that must be given: trimmed, 1 to `max` characters. */
export const requiredText = (max: number) => z.string().trim().min(1).max(max);

/** Text that may be left out, or cleared with null. */
export const optionalText = (max: number) => z.string().trim().max(max).nullable().optional();

/** A remark keeps its spacing and line breaks as written; it may be cleared. */
export const remark = z.string().max(500).nullable().optional();

/** An account's sign-in name, stored lower-case. */
export const userName = z
  .string()
  .trim()
  .toLowerCase()
  .min(2)
  .max(50)
  .regex(/^[a-z0-9][a-z0-9._@-]*$/, formatRule('userName'));

/** A phone number as people write it: digits, an optional leading +, spaces or dashes. */
export const phone = z
  .string()
  .trim()
  .max(20)
  .regex(/^\+?[0-9][0-9 -]{4,19}$/, formatRule('phone'));

/** A place in a display order. */
export const sortOrder = (max = 1_000_000) => z.number().int().min(0).max(max);

/** A create field as an import sheet's cell holds it: text, or nothing. */
function fromCell(field: z.ZodType): z.ZodType {
  let rule = field;
  let optional = false;
  while (rule instanceof z.ZodOptional || rule instanceof z.ZodNullable || rule instanceof z.ZodDefault) {
    if (!(rule instanceof z.ZodNullable)) optional = true;
    rule = rule.unwrap() as z.ZodType;
  }
  const cell =
    rule instanceof z.ZodNumber ? z.coerce.number().pipe(rule) : rule instanceof z.ZodBoolean ? z.stringbool() : rule;
  return optional ? cell.optional() : cell;
}

/**
 * One row of an import sheet, from the fields of the create request: the same rules, read from text cells (a number
 * from its text, a boolean from true/false, yes/no or 1/0). A field with a default is optional and stays unset when
 * its cell is empty, so an upsert does not reset what the sheet leaves out. `cells` replaces fields a cell cannot
 * hold as the request does (a list written as text).
 */
export function importRowOf(fields: z.ZodRawShape, cells: z.ZodRawShape = {}) {
  return z.object({
    ...Object.fromEntries(Object.entries(fields).map(([key, field]) => [key, fromCell(field as z.ZodType)])),
    ...cells,
  });
}
