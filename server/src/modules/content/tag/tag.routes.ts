import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers } from '../../../core/openapi';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import { DetachTag, MergeTags, Tag, TagOption, TagOptionsQuery, tagResource } from './tag.resource';
import { createTagService, type TagService } from './tag.service';

const path = 'content/tag';

const options = defineRoute({
  method: 'get',
  path: `/${path}/options`,
  tags: [path],
  summary: 'Enabled tags of a scope (and general ones) whose name or alias contains `q`, most used first',
  permission: ['doc:tag:list', 'doc:document:list'],
  request: { query: TagOptionsQuery },
  responses: answers('The tags', z.array(TagOption), 400, 401, 403),
});
const merge = recordAction({
  path,
  verb: 'merge',
  summary: 'Merge tags into this one: their links rewritten to it, their names kept as its aliases, then deleted',
  permission: 'doc:tag:merge',
  body: MergeTags,
  answer: ['The tag kept', Tag],
});
const detach = recordAction({
  path,
  verb: 'detach',
  summary: 'Take the tag off every record that carries it (so that it may be deleted)',
  permission: 'doc:tag:delete',
  body: DetachTag,
  answer: ['The tag, unused', Tag],
});

const actions = (service: TagService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(options, async (c) => {
      const { scope, q } = c.req.valid('query');
      return c.json(await service.options(c.var.principal.tenantId, scope, q), 200);
    })
    .openapi(merge, async (c) =>
      c.json(await service.merge(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(detach, async (c) =>
      c.json(await service.detach(writeContext(c), c.req.valid('param').id, c.req.valid('json').version), 200),
    );

export const tags = resourceModule(tagResource, {
  service: createTagService,
  routes: actions,
  omit: ['import', 'template'],
});
