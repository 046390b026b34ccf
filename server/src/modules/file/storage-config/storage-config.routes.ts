import { OpenAPIHono } from '@hono/zod-openapi';
import { Version } from '../../../core/column-bounds';
import type { AppEnv } from '../../../core/context';
import { json } from '../../../core/openapi';
import { resourceModule } from '../../../core/resource/resource.module';
import { recordActions, writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import { requestBody } from '../../../core/schema-kit';
import { StorageSharing, storageSharing } from '../storage-sharing';
import { ProbeResult, StorageConfig, storageConfigResource } from './storage-config.resource';
import { createStorageConfigService, type StorageConfigService } from './storage-config.service';

const tags = ['file/storage'];

const test = recordActions(storageConfigResource.path, tags, {
  description: 'What the probe found',
  schema: ProbeResult,
  errors: [400, 401, 403, 404],
})('test', 'file:storage:test', 'Test the connection: put, read back and delete a probe object');

const setMaster = recordAction({
  path: storageConfigResource.path,
  verb: 'set-master',
  summary: 'Make this configuration the master: new files of the tenant are stored through it',
  permission: 'file:storage:set-master',
  body: requestBody('SetStorageMaster', { version: Version }),
  answer: ['The configuration, now the master', StorageConfig],
});

const sharing = defineRoute({
  method: 'get',
  path: '/file/storage-sharing',
  tags,
  summary: 'Whether the live server instances share the local disk the tenant stores files on',
  permission: 'file:storage:list',
  responses: { 200: { description: 'The instances and the local disk', content: json(StorageSharing) } },
});

const actions = (service: StorageConfigService): OpenAPIHono<AppEnv> =>
  new OpenAPIHono<AppEnv>()
    .openapi(sharing, async (c) => {
      const { services, principal } = c.var;
      return c.json(
        await storageSharing({ instances: services.instances, stores: services.files.stores }, principal.tenantId),
        200,
      );
    })
    .openapi(test, async (c) => c.json(await service.test(writeContext(c), c.req.valid('param').id), 200))
    .openapi(setMaster, async (c) =>
      c.json(await service.setMaster(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    );

/** No import: a secret access key is never written into a sheet. */
export const storageConfigs = resourceModule(storageConfigResource, {
  service: createStorageConfigService,
  routes: actions,
  omit: ['import', 'template'],
});
