import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import type { AppEnv } from '../../../core/context';
import { answers, json } from '../../../core/openapi';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute } from '../../../core/route';
import {
  PublicSettings,
  PublicSettingsQuery,
  Setting,
  SettingKeyParam,
  SettingList,
  SettingListQuery,
  UpdateSetting,
} from './settings.schema';

const tags = ['settings'];

const getPublicSettings = defineRoute({
  method: 'get',
  path: '/system/settings/public',
  tags,
  summary: 'Settings readable before sign-in (branding, password policy), tenant overrides merged; never secrets',
  permission: 'public',
  request: { query: PublicSettingsQuery },
  responses: { 200: { description: 'Public settings by key', content: json(PublicSettings) } },
});

const listSettings = defineRoute({
  method: 'get',
  path: '/system/settings',
  tags,
  summary: 'Visible settings (of a category) with the value in force for the caller’s tenant and their metadata',
  permission: 'system:settings:list',
  request: { query: SettingListQuery },
  responses: answers('Settings', SettingList, 400, 401, 403),
});

const updateSetting = defineRoute({
  method: 'put',
  path: '/system/settings/{key}',
  tags,
  summary:
    'Set a value: a tenant writes its override (tenant-overridable keys only); the platform tenant writes the default (needs platform:setting:update)',
  permission: 'system:settings:update',
  request: { params: SettingKeyParam, body: { required: true, content: json(UpdateSetting) } },
  responses: answers('The setting after it', Setting, 400, 401, 403, 404, 409),
});

const resetSetting = defineRoute({
  method: 'delete',
  path: '/system/settings/{key}/override',
  tags,
  summary: 'Drop the tenant’s own value: the platform default applies again',
  permission: 'system:settings:update',
  request: { params: SettingKeyParam },
  responses: answers('The setting after it', Setting, 400, 401, 403, 404),
});

/** Who writes a setting: the write's context and the permissions that decide which values they may set. */
const writer = (c: Context<AppEnv>) => [writeContext(c), c.var.principal.permissions] as const;

export function settingsRoutes() {
  return new OpenAPIHono<AppEnv>()
    .openapi(getPublicSettings, async (c) => {
      const { tenant } = c.req.valid('query');
      return c.json(await c.var.services.settings.publicSettings(tenant), 200);
    })
    .openapi(listSettings, async (c) => {
      const { principal } = c.var;
      const data = await c.var.services.settings.list(
        principal.tenantId,
        principal.permissions,
        c.req.valid('query').category,
      );
      return c.json({ data, total: data.length, success: true as const }, 200);
    })
    .openapi(updateSetting, async (c) => {
      const { key } = c.req.valid('param');
      return c.json(await c.var.services.settings.update(...writer(c), key, c.req.valid('json')), 200);
    })
    .openapi(resetSetting, async (c) =>
      c.json(await c.var.services.settings.resetOverride(...writer(c), c.req.valid('param').key), 200),
    );
}
