import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/context';
import { json } from '../../core/openapi';
import { resourceLimits } from '../../core/resource/limits';
import { defineRoute } from '../../core/route';
import { resources } from '../registry';

const Limits = z.record(z.string(), z.record(z.string(), z.number().int())).openapi('FieldLimits', {
  description: "Each resource's path → each text field of its create and update bodies → its maximum length",
  example: { 'system/role': { code: 50, name: 50, remark: 500 } },
});

const getLimits = defineRoute({
  method: 'get',
  path: '/meta/limits',
  tags: ['meta'],
  summary: "The maximum length of each text field the resources' bodies take: forms stop typing there",
  permission: 'public',
  responses: { 200: { description: 'The limits, by resource and field', content: json(Limits) } },
});

/** The limits, worked out once from the schemas the server validates with (they change only with the code). */
let limits: z.infer<typeof Limits> | undefined;
export const fieldLimits = () => {
  limits ??= Object.fromEntries(
    Object.values(resources).map(({ definition }) => [definition.path, resourceLimits(definition.schemas)]),
  );
  return limits;
};

export function metaRoutes() {
  return new OpenAPIHono<AppEnv>().openapi(getLimits, (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    return c.json(fieldLimits(), 200);
  });
}
