import { type PlatformScope, platformWrites } from '../../../core/platform-scope';
import { defineResource } from '../../../core/resource/define-resource';
import { statusFilter } from '../../../core/resource/list-query';
import { plainResource } from '../../../core/resource/resource.module';
import type { ResourceDeps } from '../../../core/resource/resource.service';
import { columnsOf } from '../../../core/resource/table.repository';
import { BusinessItem, BusinessItemImportRow, CreateBusinessItem, UpdateBusinessItem } from './busiitem.schema';

export const businessItemResource = defineResource({
  path: 'dictionary/busiitem',
  permission: 'dictionary:busiitem',
  // a template is written for a business item, and its variables label a message's fields
  listedBy: ['message:template:list', 'message:message:send'],
  menu: { parent: 'dictionary', order: 3, buttons: ['bind-template'] },
  schemas: {
    row: BusinessItem,
    create: CreateBusinessItem,
    update: UpdateBusinessItem,
    importRow: BusinessItemImportRow,
  },
  table: {
    name: 'business_item',
    columns: columnsOf(BusinessItem),
    json: ['variables'],
  },
  list: {
    sort: ['code', 'name', 'module', 'updatedAt'],
    defaultSort: 'code',
    filters: {
      keyword: { kind: 'keyword', columns: ['code', 'name', 'name_en', 'description'] },
      module: { kind: 'in', column: 'module', pattern: /^[a-z][a-z0-9-]{0,49}$/ },
      notifiable: { kind: 'eq', column: 'notifiable', values: ['true', 'false'] },
      status: statusFilter,
    },
  },
  importKey: 'code',
  columns: [
    { key: 'code', example: 'course.published' },
    { key: 'name', example: '课程发布' },
    { key: 'nameEn', example: 'Course published' },
    { key: 'module', label: 'dictionary.module', example: 'teaching' },
    { key: 'description', example: '' },
    { key: 'notifiable', example: 'true' },
    { key: 'defaultChannels', cell: (row) => row.defaultChannels.join(','), example: 'in_app,wechat_mp' },
    { key: 'defaultTemplateCode', example: '' },
    { key: 'auditLevel', example: 'normal' },
    { key: 'status', label: 'dictionary.status', example: 'enabled' },
  ],
});

/** The catalogue is global: every tenant reads it; only the platform writes it (tenant bindings come with messaging). */
export const businessItems = plainResource(
  businessItemResource,
  (store, deps: ResourceDeps & { platform: PlatformScope }) => platformWrites(store, deps.platform),
);

declare module '../../../db/seed/permissions' {
  interface ResourceMenus {
    businessItems: typeof businessItemResource;
  }
}
