import { z } from '@hono/zod-openapi';

const screen = (example: string) =>
  z.string().openapi({ description: 'The console screen that lists these records, filtered', example });

export const WorkspacePoint = z
  .object({
    key: z.string().nullable().openapi({ description: 'The value grouped by (an id, a year); null: none given' }),
    label: z.string().nullable(),
    count: z.number().int(),
    path: screen('/trainee/list?status=in_training&cohortYear=2025').nullable(),
  })
  .openapi('WorkspacePoint');

export const WorkspaceCard = z
  .object({
    key: z.string().openapi({ description: 'What is counted; the console names it', example: 'traineesInTraining' }),
    count: z.number().int().openapi({ description: 'The total of the list `path` opens, for the caller' }),
    path: screen('/trainee/list?status=in_training'),
    progress: z
      .object({ done: z.number().int(), of: z.number().int() })
      .optional()
      .openapi({ description: 'Of the listed records: attended of expected, completed of enrolled' }),
    series: z
      .array(z.object({ key: z.string(), points: z.array(WorkspacePoint) }))
      .optional()
      .openapi({ description: 'The count broken down (by base, by cohort), each part with its own filtered list' }),
  })
  .openapi('WorkspaceCard');

export const WorkspaceImport = z
  .object({
    id: z.string(),
    resource: z.string().openapi({ description: 'The API path of what was imported', example: 'people/trainee' }),
    listPermission: z.string().openapi({ description: 'The list code of its screen', example: 'trainee:trainee:list' }),
    fileName: z.string(),
    status: z.enum(['queued', 'validating', 'applying', 'undoing', 'done', 'failed', 'cancelled']),
    total: z.number().int().nullable(),
    createdAt: z.string(),
  })
  .openapi('WorkspaceImport');

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
      .openapi({ description: 'Only the counts of records the caller may list, in their tenant and data scope' }),
    imports: z
      .array(WorkspaceImport)
      .openapi({ description: "The tenant's latest imports of the resources the caller may import" }),
    activity: z.array(WorkspaceActivity).openapi({ description: "The caller's own latest writes, newest first" }),
  })
  .openapi('Workspace');

export const WorkspaceQuery = z.object({
  utcOffset: z.coerce
    .number()
    .int()
    .min(-840)
    .max(840)
    .default(0)
    .openapi({ description: "The caller's offset from UTC in minutes (480 in China): where their today begins" }),
});

export type Workspace = z.infer<typeof Workspace>;
export type WorkspaceCard = z.infer<typeof WorkspaceCard>;
export type WorkspacePoint = z.infer<typeof WorkspacePoint>;
export type WorkspaceImport = z.infer<typeof WorkspaceImport>;
export type WorkspaceActivity = z.infer<typeof WorkspaceActivity>;
