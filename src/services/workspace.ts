import type {
  Workspace,
  WorkspaceActivity,
  WorkspaceCard,
  WorkspaceImport,
  WorkspacePoint,
} from '@server/modules/dashboard/workspace/workspace.schema';
import request from '@/utils/request';

export type { Workspace, WorkspaceActivity, WorkspaceCard, WorkspaceImport, WorkspacePoint };

/** Counts of the records the signed-in user may list (their today by this browser's clock), imports, their writes. */
export const fetchWorkspace = () =>
  request.get<Workspace>('/api/dashboard/workspace', { params: { utcOffset: -new Date().getTimezoneOffset() } });
