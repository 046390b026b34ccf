import type { ListSpec } from '../../../core/resource/list-query';
import { tableRepository } from '../../../core/resource/table.repository';

export const businessItemList: ListSpec = {
  sort: { code: 'code', name: 'name', module: 'module', updatedAt: 'updated_at' },
  defaultSort: 'code',
  filters: {
    keyword: { kind: 'keyword', columns: ['code', 'name', 'name_en', 'description'] },
    module: { kind: 'in', column: 'module', pattern: /^[a-z][a-z0-9-]{0,49}$/ },
    notifiable: { kind: 'eq', column: 'notifiable', values: ['true', 'false'] },
    status: { kind: 'in', column: 'status', values: ['enabled', 'disabled'] },
  },
};

export const businessItems = tableRepository({
  name: 'business_item',
  columns: {
    id: 'id',
    code: 'code',
    name: 'name',
    nameEn: 'name_en',
    module: 'module',
    description: 'description',
    notifiable: 'notifiable',
    variables: 'variables',
    defaultChannels: 'default_channels',
    defaultTemplateCode: 'default_template_code',
    auditLevel: 'audit_level',
    status: 'status',
    createdAt: 'created_at',
    updatedAt: 'updated_at',
    version: 'version',
  },
});
