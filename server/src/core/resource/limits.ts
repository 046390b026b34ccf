import type { z } from '@hono/zod-openapi';

/** What a schema of zod wraps: an optional, nullable, defaulted, read-only or piped field's own type. */
function inner(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const def = (current as { _zod: { def: { type: string; innerType?: z.ZodType; in?: z.ZodType } } })._zod.def;
    const next = def.innerType ?? (def.type === 'pipe' ? def.in : undefined);
    if (!next) return current;
    current = next;
  }
}

/** The longest text each field of an object schema takes (characters): its fields of text with a maximum. */
export function maxLengths(schema: z.ZodType): Record<string, number> {
  const shape = (inner(schema) as { shape?: Record<string, z.ZodType> }).shape ?? {};
  const found: Record<string, number> = {};
  for (const [field, type] of Object.entries(shape)) {
    const text = inner(type) as { maxLength?: number | null; _zod: { def: { type: string } } };
    if (text._zod.def.type === 'string' && typeof text.maxLength === 'number') found[field] = text.maxLength;
  }
  return found;
}

/** A resource's limits: its create and update bodies' (where they differ, the lower). */
export function resourceLimits(schemas: { create: z.ZodType; update: z.ZodType }): Record<string, number> {
  const limits = maxLengths(schemas.create);
  for (const [field, max] of Object.entries(maxLengths(schemas.update)))
    limits[field] = Math.min(max, limits[field] ?? max);
  return limits;
}
