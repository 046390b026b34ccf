import { z } from '@hono/zod-openapi';
import { Version } from '../../../core/column-bounds';
import { ref } from '../../../core/references';
import { defineResource } from '../../../core/resource/define-resource';
import { createdAtFilter, statusFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { field, recordRow, requestBody, updateBody } from '../../../core/schema-kit';
import { formatRule } from '../../../core/validation';
import type { Audited, CommonStatus, Defaulted, Id as IdColumn, Nullable, Ref } from '../../../db/types';

/** Tags (docs/domain.md §5.3): free labels of documents (and of posts, questions and courses), by scope. */
export const TAG_SCOPES = ['document', 'post', 'question', 'course', 'general'] as const;
export type TagScope = (typeof TAG_SCOPES)[number];

interface TagTable extends Audited {
  id: IdColumn;
  tenant_id: Ref;
  name: string;
  scope: Defaulted<TagScope>;
  group_name: Nullable<string>;
  color: Nullable<string>;
  aliases: Defaulted<string[]>;
  usage_count: Defaulted<number>;
  sort: Defaulted<number>;
  status: Defaulted<CommonStatus>;
  remark: Nullable<string>;
}
interface DocumentTagTable {
  id: IdColumn;
  tenant_id: Ref;
  document_id: Ref;
  tag_id: Ref;
}
declare module '../../../db/types' {
  interface DB {
    tag: TagTable;
    document_tag: DocumentTagTable;
  }
}

export const Tag = recordRow({
  name: z.string(),
  scope: z.enum(TAG_SCOPES),
  groupName: z.string().nullable(),
  color: z.string().nullable(),
  aliases: z.array(z.string()).openapi({ description: 'The names of the tags merged into this one' }),
  usageCount: z.number().int().openapi({ description: 'How many records carry the tag' }),
  sort: z.number().int(),
  status: field.status,
  remark: z.string().nullable(),
}).openapi('Tag');
export type Tag = z.infer<typeof Tag>;

const fields = {
  name: field.requiredText(30),
  scope: z.enum(TAG_SCOPES).optional(),
  groupName: field.optionalText(30),
  color: z
    .string()
    .trim()
    .regex(/^(#[0-9a-fA-F]{6}|[a-z]+)$/, formatRule('tagColor'))
    .nullable()
    .optional(),
  sort: field.sortOrder().optional(),
  status: field.status.optional(),
  remark: field.remark,
};
export const CreateTag = requestBody('CreateTag', fields);
export type CreateTag = z.infer<typeof CreateTag>;
export const UpdateTag = updateBody('UpdateTag', { ...fields, name: fields.name.optional() });
export type UpdateTag = z.infer<typeof UpdateTag>;

export const MergeTags = requestBody('MergeTags', {
  sourceIds: z
    .array(ref('tag'))
    .min(1)
    .max(100)
    .openapi({ description: 'The tags merged into this one (then deleted)' }),
  version: Version,
});
export type MergeTags = z.infer<typeof MergeTags>;
export const DetachTag = requestBody('DetachTag', { version: Version });

export const TagOptionsQuery = z
  .object({
    scope: z.enum(TAG_SCOPES).optional(),
    q: z.string().trim().max(30).optional(),
  })
  .strict();
export const TagOption = z
  .object({ value: z.string(), label: z.string(), color: z.string().nullable(), groupName: z.string().nullable() })
  .openapi('TagOption');
export type TagOption = z.infer<typeof TagOption>;

export const tagResource = defineResource({
  path: 'content/tag',
  permission: 'doc:tag',
  schemas: { row: Tag, create: CreateTag, update: UpdateTag },
  table: { name: 'tag', columns: columnsOf(Tag), tenantOwned: true },
  list: {
    sort: ['name', 'sort', 'usageCount', 'createdAt'],
    defaultSort: '-createdAt',
    filters: {
      keyword: { kind: 'keyword', columns: ['name', 'group_name'] },
      scope: { kind: 'in', column: 'scope', values: TAG_SCOPES },
      status: statusFilter,
      createdAt: createdAtFilter,
    },
  },
  label: (row) => `${row.scope}:${row.name}`,
  columns: [
    { key: 'name' },
    { key: 'scope' },
    { key: 'groupName' },
    { key: 'color' },
    { key: 'usageCount' },
    { key: 'status' },
    { key: 'createdAt' },
  ],
});
