import type { Workspace, WorkspaceActivity, WorkspaceCard } from '@server/modules/dashboard/workspace/workspace.schema';
import request from '@/utils/request';

export type { Workspace, WorkspaceActivity, WorkspaceCard };

/** Counts of the records the signed-in user may list, and their own latest writes. */
export const fetchWorkspace = () => request.get<Workspace>('/api/dashboard/workspace');
