import { defineResource } from '../../../core/resource/define-resource';
import { statusFilter } from '../../../core/resource/list-query';
import { columnsOf } from '../../../core/resource/table.repository';
import { CreateErrorCode, ErrorCode, ErrorCodeImportRow, UpdateErrorCode } from './errcode.schema';

export const errorCodeResource = defineResource({
  path: 'dictionary/errcode',
  permission: 'dictionary:errcode',
  menu: { parent: 'dictionary', order: 2, platformOnly: true },
  schemas: { row: ErrorCode, create: CreateErrorCode, update: UpdateErrorCode, importRow: ErrorCodeImportRow },
  table: {
    name: 'error_code',
    columns: columnsOf(ErrorCode),
  },
  list: {
    sort: ['code', 'key', 'module', 'httpStatus', 'updatedAt'],
    defaultSort: 'code',
    filters: {
      keyword: { kind: 'keyword', columns: ['key', 'message_zh', 'message_en'] },
      module: { kind: 'in', column: 'module', pattern: /^[a-z][a-z0-9-]{0,49}$/ },
      source: { kind: 'in', column: 'source', values: ['built_in', 'manual'] },
      status: statusFilter,
      httpStatus: { kind: 'in', column: 'http_status', pattern: /^[45]\d\d$/ },
    },
  },
  importKey: 'key',
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
