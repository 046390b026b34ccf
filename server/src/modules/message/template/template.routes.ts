import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, json } from '../../../core/openapi';
import type { PlatformScope } from '../../../core/platform-scope';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import type { ResourceDeps } from '../../../core/resource/resource.service';
import { defineRoute } from '../../../core/route';
import { messageTemplateResource, PreviewDraft, PreviewTemplate, TemplatePreview } from './template.resource';
import { createMessageTemplateService, type MessageTemplateService } from './template.service';

const path = 'message/template';
const tags = [path];

const previewDraft = defineRoute({
  method: 'post',
  path: `/${path}/preview`,
  tags,
  summary:
    'A template being edited, rendered with sample values (variables without one take the business item’s example)',
  permission: 'message:template:list',
  request: { body: { required: true, content: json(PreviewDraft) } },
  responses: answers('The rendered title and content', TemplatePreview, 400, 401, 403),
});
const preview = defineRoute({
  method: 'post',
  path: `/${path}/{id}/preview`,
  tags,
  summary: 'A saved template rendered with sample values (variables without one take the business item’s example)',
  permission: 'message:template:list',
  request: { params: IdParam, body: { required: true, content: json(PreviewTemplate) } },
  responses: answers('The rendered title and content', TemplatePreview, 400, 401, 403, 404),
});

const actions = (service: MessageTemplateService): OpenAPIHono<AppEnv> =>
  new OpenAPIHono<AppEnv>()
    .openapi(previewDraft, async (c) =>
      c.json(await service.previewDraft(c.var.principal.tenantId, c.req.valid('json'), c.var.lang), 200),
    )
    .openapi(preview, async (c) =>
      c.json(
        await service.preview(c.var.principal.tenantId, c.req.valid('param').id, c.req.valid('json').params ?? {}),
        200,
      ),
    );

/** The test send (`POST /message/template/{id}/test-send`, message:template:test-send) comes with the sending pipeline. */
export const messageTemplates = resourceModule(messageTemplateResource, {
  service: (deps: ResourceDeps & { platform: PlatformScope }) => createMessageTemplateService(deps),
  routes: actions,
  omit: ['import', 'template'],
});
