import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { resourceModule } from '../../../core/resource/resource.module';
import { recordActions, writeContext } from '../../../core/resource/resource.routes';
import { oauthClientResource } from './client.resource';
import { ClientSecret, RevokedTokens } from './client.schema';
import { createOauthClientService, type OauthClientService } from './client.service';

const tags = ['system/client'];

const rotateSecret = recordActions(oauthClientResource.path, tags, {
  description: 'The new secret',
  schema: ClientSecret,
})(
  'rotate-secret',
  'system:client:rotate-secret',
  'A new secret for a confidential client, shown once; the old one stops working',
);

const revokeTokens = recordActions(oauthClientResource.path, tags, {
  description: 'How many sessions ended',
  schema: RevokedTokens,
  errors: [400, 401, 403, 404],
})(
  'revoke-tokens',
  'system:client:revoke-tokens',
  'End every session issued to the client, in every tenant: its tokens stop working at once',
);

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
