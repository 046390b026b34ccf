import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers, json } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, recordAction } from '../../../core/route';
import {
  Board,
  boardResource,
  ModeratorRow,
  Reorder,
  ReorderResult,
  SetBoardStatus,
  SetModerators,
} from './board.resource';
import { type BoardService, createBoardService } from './board.service';

const path = 'community/board';
const tags = [path];

const setStatus = recordAction({
  path,
  verb: 'status',
  summary: 'Open, lock (read-only: no new posts or replies) or archive the board',
  permission: 'community:board:update',
  body: SetBoardStatus,
  answer: ['The board', Board],
});
const reorder = defineRoute({
  method: 'post',
  path: `/${path}/reorder`,
  tags,
  summary: 'Put the boards named in this order (sort 0, 1, 2 …): all of them, or none',
  permission: 'community:board:reorder',
  request: { body: { required: true, content: json(Reorder) } },
  responses: answers('How many boards', ReorderResult, 400, 401, 403),
});
const moderators = defineRoute({
  method: 'get',
  path: `/${path}/{id}/moderators`,
  tags,
  summary: 'The moderators of the board',
  permission: 'community:board:list',
  request: { params: IdParam },
  responses: answers('The moderators', z.array(ModeratorRow), 400, 401, 403, 404),
});
const setModerators = recordAction({
  method: 'put',
  path,
  verb: 'moderators',
  summary: 'Replace the moderators of the board (users of the console, doctors)',
  permission: 'community:board:update',
  body: SetModerators,
  answer: [
    'The board and its moderators',
    z.object({ board: Board, moderators: z.array(ModeratorRow) }).openapi('BoardModerated'),
  ],
});

const actions = (service: BoardService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(reorder, async (c) => c.json(await service.reorder(writeContext(c), c.req.valid('json')), 200))
    .openapi(setStatus, async (c) => {
      const { status, version } = c.req.valid('json');
      return c.json(await service.setStatus(writeContext(c), c.req.valid('param').id, status, version), 200);
    })
    .openapi(moderators, async (c) =>
      c.json(await service.moderators(c.var.principal.tenantId, c.req.valid('param').id), 200),
    )
    .openapi(setModerators, async (c) =>
      c.json(await service.setModerators(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    );

export const boards = resourceModule(boardResource, {
  service: createBoardService,
  routes: actions,
  omit: ['import', 'template'],
});
