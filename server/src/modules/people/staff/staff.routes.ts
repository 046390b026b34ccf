import { OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers } from '../../../core/openapi';
import { IdParam } from '../../../core/resource/id-param';
import { resourceModule } from '../../../core/resource/resource.module';
import { recordActions, writeContext } from '../../../core/resource/resource.routes';
import { defineRoute, type PermissionCode, recordAction } from '../../../core/route';
import { RevealedIdNo } from '../trainee/trainee.resource';
import {
  ChangeStaffStatus,
  CreateStaffAccount,
  LinkStaffAccount,
  Staff,
  StaffAccount,
  StaffHistory,
  staffResource,
  TransferStaff,
} from './staff.resource';
import { createStaffService, type StaffService } from './staff.service';

const path = 'people/staff';

const act = <B extends z.ZodType>(verb: string, body: B, permission: PermissionCode, summary: string) =>
  recordAction({ path, verb, summary, permission, body, answer: ['The staff member', Staff] });
const transfer = act(
  'transfer',
  TransferStaff,
  'people:staff:transfer',
  'Move the staff member to another department (kept in the history; the account follows)',
);
const changeStatus = act(
  'status',
  ChangeStaffStatus,
  'people:staff:change-status',
  'On leave, back, or left: leaving disables the console account and ends its sessions',
);
const linkAccount = act(
  'link-account',
  LinkStaffAccount,
  'people:staff:create-account',
  'Make an existing console account, no other staff member’s, this one’s',
);
const createAccount = recordAction({
  path,
  verb: 'account',
  summary: 'Create a console account for the staff member, with a temporary password to replace at first sign-in',
  permission: 'people:staff:create-account',
  body: CreateStaffAccount,
  answer: ['The staff member and the temporary password', StaffAccount],
});
const reveal = recordActions(path, [path], {
  description: 'The ID number in clear (audited)',
  schema: RevealedIdNo,
  errors: [400, 401, 403, 404],
})('reveal-id', 'people:staff:pii-view', 'Show the ID number in clear; the audit trail records who saw it');
const history = defineRoute({
  method: 'get',
  path: `/${path}/{id}/history`,
  tags: [path],
  summary: 'Transfers, status changes and accounts of the staff member, newest first',
  permission: 'people:staff:list',
  request: { params: IdParam },
  responses: answers('History', z.array(StaffHistory), 400, 401, 403, 404),
});

const actions = (service: StaffService) =>
  new OpenAPIHono<AppEnv>()
    .openapi(transfer, async (c) =>
      c.json(await service.transfer(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(changeStatus, async (c) =>
      c.json(await service.changeStatus(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(createAccount, async (c) =>
      c.json(await service.createAccount(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(linkAccount, async (c) =>
      c.json(await service.linkAccount(writeContext(c), c.req.valid('param').id, c.req.valid('json')), 200),
    )
    .openapi(reveal, async (c) => c.json({ idNo: await service.reveal(writeContext(c), c.req.valid('param').id) }, 200))
    .openapi(history, async (c) =>
      c.json(await service.history(c.var.principal.tenantId, c.req.valid('param').id, c.var.principal.userId), 200),
    );

export const staff = resourceModule(staffResource, { service: createStaffService, routes: actions });
