import { defineResource } from '../../../core/resource/define-resource';
import { CreateErrorCode, ErrorCode, ErrorCodeImportRow, UpdateErrorCode } from './errcode.schema';

export const errorCodeResource = defineResource({
  path: 'dictionary/errcode',
  type: 'error_code',
  permission: 'dictionary:errcode',
  menu: { parent: 'dictionary', order: 2, platformOnly: true },
  schemas: { row: ErrorCode, create: CreateErrorCode, update: UpdateErrorCode, importRow: ErrorCodeImportRow },
  table: {
    name: 'error_code',
    columns: {
      id: 'id',
      code: 'code',
      key: 'key',
      module: 'module',
      httpStatus: 'http_status',
      messageZh: 'message_zh',
      messageEn: 'message_en',
      showType: 'show_type',
      source: 'source',
      messageCustomized: 'message_customized',
      status: 'status',
      createdAt: 'created_at',
      updatedAt: 'updated_at',
      version: 'version',
    },
  },
  list: {
    sort: ['code', 'key', 'module', 'httpStatus', 'updatedAt'],
    defaultSort: 'code',
    filters: {
      keyword: { kind: 'keyword', columns: ['key', 'message_zh', 'message_en'] },
      module: { kind: 'in', column: 'module', pattern: /^[a-z][a-z0-9-]{0,49}$/ },
      source: { kind: 'in', column: 'source', values: ['built_in', 'manual'] },
      status: { kind: 'in', column: 'status', values: ['enabled', 'disabled'] },
      httpStatus: { kind: 'in', column: 'http_status', pattern: /^[45]\d\d$/ },
    },
  },
  importKey: 'key',
  label: (row) => row.key,
  labels: 'dictionary.errcode',
  columns: [
    { key: 'code', example: '2004001' },
    { key: 'key', example: 'trainee.idNo.duplicate' },
    { key: 'module', label: 'dictionary.module', example: 'trainee' },
    { key: 'httpStatus', example: '409' },
    { key: 'messageZh', example: '身份证号已存在' },
    { key: 'messageEn', example: 'The ID number is already registered' },
    { key: 'showType', example: '2' },
    { key: 'status', label: 'dictionary.status', example: 'enabled' },
    { key: 'source', only: 'export' },
  ],
});

declare module '../../../db/seed/permissions' {
  interface ResourceMenus {
    errorCodes: typeof errorCodeResource;
  }
}
