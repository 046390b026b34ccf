import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../core/context';
import { defineRoute } from '../../core/route';
import { PublicSettings, PublicSettingsQuery } from './settings.schema';

const getPublicSettings = defineRoute({
  method: 'get',
  path: '/settings/public',
  tags: ['settings'],
  summary: 'Settings readable before sign-in (branding, password policy), tenant overrides merged',
  permission: 'public',
  request: { query: PublicSettingsQuery },
  responses: { 200: { description: 'Public settings by key', content: { 'application/json': { schema: PublicSettings } } } },
});

export function settingsRoutes() {
  return new OpenAPIHono<AppEnv>().openapi(getPublicSettings, async (c) => {
    const { tenant } = c.req.valid('query');
    return c.json(await c.var.services.settings.publicSettings(tenant), 200);
  });
}
