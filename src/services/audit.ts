import type { AuditLog, LoginLog } from '@server/modules/system/audit/audit.schema';
import type { ListAnswer } from '@/services/resource';
import request from '@/utils/request';

export type { AuditLog, LoginLog };

/** One record's timeline, newest first. */
export const fetchAuditLogs = (resourceType: string, resourceId: string, pageSize = 20) =>
  request.get<ListAnswer<AuditLog>>('/api/system/audit-log', {
    params: { resourceType, resourceId, current: '1', pageSize: String(pageSize) },
  });

/** A user's recent sign-ins and sign-outs, newest first. */
export const fetchLoginLogs = (userId: string, pageSize = 10) =>
  request.get<ListAnswer<LoginLog>>('/api/system/login-log', {
    params: { userId, current: '1', pageSize: String(pageSize) },
  });
