import { z } from '@hono/zod-openapi';
import { ID_PATTERN } from '../../../core/resource/id-param';
import { createdAtFilter, type ListSpec, listQuerySchema, listResponse } from '../../../core/resource/list-query';

export const auditLogList: ListSpec = {
  sort: { createdAt: 'created_at' },
  defaultSort: '-createdAt',
  filters: {
    resourceType: { kind: 'eq', column: 'resource_type' },
    resourceId: { kind: 'eq', column: 'resource_id' },
    action: { kind: 'in', column: 'action' },
    actorId: { kind: 'eq', column: 'actor_id', pattern: ID_PATTERN },
    createdAt: createdAtFilter,
  },
};

export const loginLogList: ListSpec = {
  sort: { createdAt: 'created_at' },
  defaultSort: '-createdAt',
  filters: {
    userId: { kind: 'eq', column: 'user_id', pattern: ID_PATTERN },
    logType: { kind: 'in', column: 'log_type' },
    createdAt: createdAtFilter,
  },
};

export const AuditLog = z
  .object({
    id: z.string(),
    actorId: z.string().nullable(),
    actorName: z.string().nullable(),
    action: z.string().openapi({ description: 'The permission code of the write', example: 'system:admin:update' }),
    resourceType: z.string(),
    resourceId: z.string().nullable(),
    summary: z.string().nullable(),
    before: z.unknown().nullable(),
    after: z.unknown().nullable(),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('AuditLog');
export type AuditLog = z.infer<typeof AuditLog>;

export const LoginLog = z
  .object({
    id: z.string(),
    userId: z.string().nullable(),
    username: z.string(),
    clientId: z.string().nullable(),
    logType: z.string().openapi({ example: 'login_password' }),
    result: z.enum(['success', 'failure']),
    reason: z.string().nullable().openapi({ description: 'Why it failed (`bad_credentials`, `user_disabled`, ...)' }),
    ip: z.string().nullable(),
    userAgent: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('LoginLog');
export type LoginLog = z.infer<typeof LoginLog>;

export const AuditLogQuery = listQuerySchema(auditLogList);
export const LoginLogQuery = listQuerySchema(loginLogList);
export const AuditLogPage = listResponse(AuditLog, 'AuditLogList');
export const LoginLogPage = listResponse(LoginLog, 'LoginLogList');
