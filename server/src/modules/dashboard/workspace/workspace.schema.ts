import { z } from '@hono/zod-openapi';

export const WorkspaceCard = z
  .object({
    key: z.string().openapi({ description: 'What is counted; the console names it', example: 'lockedAccounts' }),
    count: z.number().int(),
    path: z.string().openapi({ description: 'The console screen that lists these records', example: '/system/admin' }),
  })
  .openapi('WorkspaceCard');

export const WorkspaceActivity = z
  .object({
    id: z.string(),
    action: z.string().openapi({ description: 'The permission code of the write', example: 'system:role:update' }),
    actionName: z.string().nullable().openapi({ example: '角色管理 · 编辑' }),
    actionNameEn: z.string().nullable().openapi({ example: 'Roles · Edit' }),
    resourceType: z.string(),
    resourceId: z.string().nullable(),
    summary: z.string().nullable(),
    createdAt: z.string(),
  })
  .openapi('WorkspaceActivity');

export const Workspace = z
  .object({
    cards: z
      .array(WorkspaceCard)
      .openapi({ description: 'Only the counts of records the caller may list, in their tenant' }),
    activity: z.array(WorkspaceActivity).openapi({ description: "The caller's own latest writes, newest first" }),
  })
  .openapi('Workspace');
export type Workspace = z.infer<typeof Workspace>;
export type WorkspaceCard = z.infer<typeof WorkspaceCard>;
export type WorkspaceActivity = z.infer<typeof WorkspaceActivity>;
