import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute } from '../../../core/route';
import { oauthClientResource } from './client.resource';
import { ClientSecret, RevokedTokens } from './client.schema';
import { createOauthClientService, type OauthClientService } from './client.service';

const tags = ['system/client'];

const rotateSecret = defineRoute({
  method: 'post',
  path: '/system/client/{id}/rotate-secret',
  tags,
  summary: 'A new secret for a confidential client, shown once; the old one stops working',
  permission: 'system:client:rotate-secret',
  request: { params: IdParam },
  responses: answers('The new secret', ClientSecret, 400, 401, 403, 404, 409),
});

const revokeTokens = defineRoute({
  method: 'post',
  path: '/system/client/{id}/revoke-tokens',
  tags,
  summary: 'End every session issued to the client, in every tenant: its tokens stop working at once',
  permission: 'system:client:revoke-tokens',
  request: { params: IdParam },
  responses: answers('How many sessions ended', RevokedTokens, 400, 401, 403, 404),
});

const actions = (service: OauthClientService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(rotateSecret, async (c) => {
      c.header('Cache-Control', 'no-store');
      return c.json(await service.rotateSecret(writeContext(c), c.req.valid('param').id), 200);
    })
    .openapi(revokeTokens, async (c) =>
      c.json(await service.revokeTokens(writeContext(c), c.req.valid('param').id), 200),
    );

/** No import: a confidential client's secret could not be shown to anyone. */
export const clients = resourceModule(oauthClientResource, {
  service: createOauthClientService,
  routes: actions,
  omit: ['import'],
});
