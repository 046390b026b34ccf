import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers } from '../../../core/openapi';
import { defineRoute } from '../../../core/route';
import { Workspace } from './workspace.schema';

const getWorkspace = defineRoute({
  method: 'get',
  path: '/dashboard/workspace',
  tags: ['workspace'],
  summary: "The signed-in user's landing screen: counts of the records they may list, and their own latest writes",
  description: 'Each count appears only with the list code of its screen (e.g. `system:admin:list` for accounts).',
  permission: 'authenticated',
  responses: answers('Cards and activity', Workspace, 401),
});

export function workspaceRoutes() {
  return new OpenAPIHono<AppEnv>().openapi(getWorkspace, async (c) =>
    c.json(await c.var.services.workspace.get(c.var.principal), 200),
  );
}
