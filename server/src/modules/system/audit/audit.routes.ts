import { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../../../core/context';
import { answers } from '../../../core/openapi';
import { parseListQuery } from '../../../core/resource/list-query';
import { defineRoute } from '../../../core/route';
import { AuditLogPage, AuditLogQuery, auditLogList, LoginLogPage, LoginLogQuery, loginLogList } from './audit.schema';
import { AUDIT_LIST_PERMISSION } from './audit.service';

const listAuditLogs = defineRoute({
  method: 'get',
  path: '/system/audit-log',
  tags: ['logs'],
  summary: 'The audit trail, newest first; with resourceType and resourceId, one record’s timeline',
  description: `Needs the \`:list\` code of the resource type asked for (e.g. \`system:admin:list\` for \`admin_user\`) or \`${AUDIT_LIST_PERMISSION}\`.`,
  permission: 'authenticated',
  request: { query: AuditLogQuery },
  responses: answers('Audit rows', AuditLogPage, 400, 401, 403),
});

const listLoginLogs = defineRoute({
  method: 'get',
  path: '/system/login-log',
  tags: ['logs'],
  summary: 'Sign-ins and sign-outs (success or failure with its reason), newest first',
  permission: 'system:admin:list',
  request: { query: LoginLogQuery },
  responses: answers('Login rows', LoginLogPage, 400, 401, 403),
});

export function auditRoutes() {
  return new OpenAPIHono<AppEnv>()
    .openapi(listAuditLogs, async (c) => {
      const query = parseListQuery(auditLogList, c.req.valid('query'), c.var.lang);
      return c.json(await c.var.services.audit.list(c.var.principal, query), 200);
    })
    .openapi(listLoginLogs, async (c) => {
      const query = parseListQuery(loginLogList, c.req.valid('query'), c.var.lang);
      return c.json(await c.var.services.audit.loginLogs(c.var.principal.tenantId, query), 200);
    });
}
