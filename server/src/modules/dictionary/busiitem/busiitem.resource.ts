import type { ResourceDefinition } from '../../../core/resource/resource';
import { businessItemList } from './busiitem.repository';
import { BusinessItem, BusinessItemImportRow, CreateBusinessItem, UpdateBusinessItem } from './busiitem.schema';

export const businessItemResource: ResourceDefinition<BusinessItem, CreateBusinessItem, UpdateBusinessItem> = {
  path: 'dictionary/busiitem',
  type: 'business_item',
  permission: 'dictionary:busiitem',
  schemas: {
    row: BusinessItem,
    create: CreateBusinessItem,
    update: UpdateBusinessItem,
    importRow: BusinessItemImportRow,
  },
  list: businessItemList,
  importKey: 'code',
  label: (row) => row.code,
  columns: [
    { key: 'code', label: { 'zh-CN': '编码', 'en-US': 'Code' }, example: 'course.published' },
    { key: 'name', label: { 'zh-CN': '名称', 'en-US': 'Name' }, example: '课程发布' },
    { key: 'nameEn', label: { 'zh-CN': '英文名称', 'en-US': 'English name' }, example: 'Course published' },
    { key: 'module', label: { 'zh-CN': '模块', 'en-US': 'Module' }, example: 'teaching' },
    { key: 'description', label: { 'zh-CN': '说明', 'en-US': 'Description' }, example: '' },
    { key: 'notifiable', label: { 'zh-CN': '可通知', 'en-US': 'Notifiable' }, example: 'true' },
    {
      key: 'defaultChannels',
      label: { 'zh-CN': '默认渠道', 'en-US': 'Default channels' },
      cell: (row) => row.defaultChannels.join(','),
      example: 'in_app,wechat_mp',
    },
    { key: 'defaultTemplateCode', label: { 'zh-CN': '默认模板', 'en-US': 'Default template' }, example: '' },
    { key: 'auditLevel', label: { 'zh-CN': '审计级别', 'en-US': 'Audit level' }, example: 'normal' },
    { key: 'status', label: { 'zh-CN': '状态', 'en-US': 'Status' }, example: 'enabled' },
  ],
};
