import { z } from '@hono/zod-openapi';
import type { HonoRequest, MiddlewareHandler } from 'hono';
import type { AppEnv } from './context';
import { AppError } from './errors';
import type { Lang } from './i18n';
import { visibleIds } from './reference.repository';
import { ID_PATTERN } from './resource/id-param';
import type { TableName } from './resource/table.repository';
import type { Tx } from './tenancy';
import { refusedValueFields } from './validation';

/**
 * References: a body field that carries the id of another record. Each is declared once, in its entity's schema, with
 * the table it names (`ref('organization')`); every route whose body holds one refuses, before its handler runs, an id
 * that names no row the caller's tenant sees (another tenant's included), with 400 `common.validation` naming the
 * field. The OpenAPI document shows the table as `x-references`, which the generated suites read: they send another
 * tenant's id to each such field of each operation, and fail on a field named `…Id`/`…Ids` that declares nothing.
 * Where a reference is stored in a column, a composite foreign key with `tenant_id` refuses it as well
 * (migration 0059). A form's fields (an import's parameters beside its file) are checked as a JSON body's are.
 */

/** The table a reference names, or for a polymorphic one the table by the value of a sibling field. */
export type Target = TableName | { by: string; to: Readonly<Record<string, TableName>> };

/** `x-references` of a field: its target, or `false` for a field named like a reference that is none. */
const EXTENSION = 'x-references';

/**
 * Declared references by the definition of their schema, which a later `.openapi({...})` (a description) keeps: the
 * route walks its body's schema once, when it is defined.
 */
const declared = new WeakMap<object, Target>();

const declare = (target: Target, description?: string) => {
  const schema = z
    .string()
    .regex(ID_PATTERN, 'must be a positive integer id')
    .openapi({ example: '2', [EXTENSION]: target, ...(description ? { description } : {}) });
  declared.set(schema._zod.def, target);
  return schema;
};

/** The id of a row of `table` that the caller's tenant sees (its own, or a shared platform row). */
export const ref = (table: TableName, description?: string) => declare(table, description);

/** The id of a row of the table that the sibling field `by` names: `refBy('subjectType', { role: 'role' })`. */
export const refBy = (by: string, to: Readonly<Record<string, TableName>>, description?: string) =>
  declare({ by, to }, description);

/** A field named like a reference that is none (an id in another system: an app id, an access key id). */
export const notRef = <S extends z.ZodType>(schema: S): S => schema.openapi({ [EXTENSION]: false }) as S;

/** Where a reference sits in a body: property names, `*` for each item of an array. */
export interface ReferencePath {
  path: readonly string[];
  target: Target;
}

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  element?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  out?: z.ZodType;
  options?: z.ZodType[];
  left?: z.ZodType;
  right?: z.ZodType;
}

/** Every reference a body schema declares, at any depth (objects, arrays, optional or nullable fields, unions). */
export function referencesOf(schema: z.ZodType, path: readonly string[] = []): ReferencePath[] {
  const def = schema._zod.def as unknown as Def;
  const target = declared.get(def);
  if (target) return [{ path, target }];
  const inner = (s: z.ZodType | undefined, at = path) => (s ? referencesOf(s, at) : []);
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape ?? {}).flatMap(([key, s]) => referencesOf(s, [...path, key]));
    case 'array':
      return inner(def.element, [...path, '*']);
    case 'pipe':
      return [...inner(def.in), ...inner(def.out)];
    case 'union':
      return (def.options ?? []).flatMap((s) => referencesOf(s, path));
    case 'intersection':
      return [...inner(def.left), ...inner(def.right)];
    default:
      return inner(def.innerType);
  }
}

interface Named {
  field: string;
  table: TableName;
  id: string;
}

/** The ids a body holds at `ref`'s path, each with its field as the 400 names it (`audience.orgIds.2`). */
function idsAt(value: unknown, ref: ReferencePath, at = 0, field: string[] = [], parent?: unknown): Named[] {
  if (at === ref.path.length) {
    const table =
      typeof ref.target === 'string'
        ? ref.target
        : ref.target.to[String((parent as Record<string, unknown> | undefined)?.[ref.target.by])];
    // what is no id (or names an unknown kind) is the schema's to refuse, after this
    return table && typeof value === 'string' && ID_PATTERN.test(value)
      ? [{ field: field.join('.'), table, id: value }]
      : [];
  }
  const step = ref.path[at] as string;
  if (step === '*')
    return Array.isArray(value)
      ? value.flatMap((item, i) => idsAt(item, ref, at + 1, [...field, String(i)], parent))
      : [];
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return idsAt((value as Record<string, unknown>)[step], ref, at + 1, [...field, step], value);
}

const texts: Record<Lang, string> = {
  'zh-CN': '不存在，或不属于本租户',
  'en-US': 'is not an existing record of your tenant',
};

/** What a refused reference's field says: no record of the caller's tenant. */
export const notOfTenant = (lang: Lang): string => texts[lang];

/** The media types of a body read as form fields (an import's file and its parameters). */
export const FORM_TYPES = ['multipart/form-data', 'application/x-www-form-urlencoded'] as const;

/**
 * The body as the route's validator reads it, from Hono's cache (it reads it again from there): JSON, or a form's fields
 * (a field given more than once as the list of its values); undefined when it cannot be read.
 */
async function bodyOf(req: HonoRequest): Promise<unknown> {
  const type = req.header('content-type') ?? '';
  if (type.includes('json')) return req.json().catch(() => undefined);
  if (!FORM_TYPES.some((form) => type.includes(form))) return undefined;
  // parsed as the validator parses it, and left for it in the cache; a form it cannot parse is its to refuse
  const form = await req
    .arrayBuffer()
    .then((buffer) => new Response(buffer, { headers: { 'content-type': type } }).formData())
    .catch(() => undefined);
  if (!form) return undefined;
  req.bodyCache.formData = form;
  const fields: Record<string, unknown> = {};
  for (const key of new Set(form.keys())) {
    const values = form.getAll(key);
    fields[key] = values.length === 1 ? values[0] : values;
  }
  return fields;
}

/**
 * Refuses a body whose references name rows the caller's tenant does not see: 400 naming each such field. It reads the
 * raw body, JSON or a form's fields, and looks at the references of a body its schema accepts: any other is the
 * validator's to refuse.
 */
export function refuseForeignReferences(schema: z.ZodType, refs: readonly ReferencePath[]): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const body = await bodyOf(c.req);
    // a body the schema refuses is answered by the validator first, naming what is wrong with it
    const valid =
      body !== undefined && refusedValueFields(body, c.var.lang).length === 0 && schema.safeParse(body).success;
    const named = valid ? refs.flatMap((ref) => idsAt(body, ref)) : [];
    if (named.length > 0) {
      const { tenancy } = c.var.services;
      const principal = c.get('principal') as AppEnv['Variables']['principal'] | undefined;
      const unknown = await (principal
        ? tenancy.inTenant(principal.tenantId, (tx) => unresolved(tx, named))
        : tenancy.inPlatformScope((tx) => unresolved(tx, named)));
      if (unknown.length > 0) {
        const message = notOfTenant(c.var.lang);
        throw new AppError(
          'common.validation',
          {},
          unknown.map(({ field }) => ({ field, message })),
        );
      }
    }
    await next();
  };
}

/** The references of `named` that name no row the transaction sees. */
async function unresolved(tx: Tx, named: readonly Named[]): Promise<Named[]> {
  const seen = new Map<TableName, Set<string>>();
  for (const table of new Set(named.map((n) => n.table))) {
    seen.set(table, await visibleIds(tx, table, [...new Set(named.filter((n) => n.table === table).map((n) => n.id))]));
  }
  return named.filter((n) => !seen.get(n.table)?.has(n.id));
}
