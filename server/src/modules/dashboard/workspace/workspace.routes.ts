import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers } from '../../../core/openapi';
import { defineRoute } from '../../../core/route';
import { Workspace, WorkspaceQuery } from './workspace.schema';

const getWorkspace = defineRoute({
  method: 'get',
  path: '/dashboard/workspace',
  tags: ['workspace'],
  summary: "The signed-in user's landing screen: counts of the records they may list, and their own latest writes",
  description:
    'Each card appears only with the list code of its screen (e.g. `trainee:trainee:list` for trainees in training) ' +
    'and counts what that list, filtered as its `path` says, shows the caller (their tenant and data scope).',
  permission: 'authenticated',
  request: { query: WorkspaceQuery },
  responses: answers('Cards, imports and activity', Workspace, 400, 401),
});

export function workspaceRoutes() {
  return new OpenAPIHono<AppEnv>().openapi(getWorkspace, async (c) => {
    const { services, principal, lang } = c.var;
    const { utcOffset } = c.req.valid('query');
    return c.json(await services.workspace.get(principal, { lang, utcOffset, sources: services }), 200);
  });
}
