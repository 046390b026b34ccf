import type { ResourceDefinition } from '../../../core/resource/resource';
import { errorCodeList } from './errcode.repository';
import { CreateErrorCode, ErrorCode, ErrorCodeImportRow, UpdateErrorCode } from './errcode.schema';

export const errorCodeResource: ResourceDefinition<ErrorCode, CreateErrorCode, UpdateErrorCode> = {
  path: 'dictionary/errcode',
  type: 'error_code',
  permission: 'dictionary:errcode',
  schemas: { row: ErrorCode, create: CreateErrorCode, update: UpdateErrorCode, importRow: ErrorCodeImportRow },
  list: errorCodeList,
  importKey: 'key',
  label: (row) => row.key,
  columns: [
    { key: 'code', label: { 'zh-CN': '错误码', 'en-US': 'Code' }, example: '2004001' },
    { key: 'key', label: { 'zh-CN': '标识', 'en-US': 'Key' }, example: 'trainee.idNo.duplicate' },
    { key: 'module', label: { 'zh-CN': '模块', 'en-US': 'Module' }, example: 'trainee' },
    { key: 'httpStatus', label: { 'zh-CN': 'HTTP 状态', 'en-US': 'HTTP status' }, example: '409' },
    { key: 'messageZh', label: { 'zh-CN': '中文提示', 'en-US': 'Chinese message' }, example: '身份证号已存在' },
    {
      key: 'messageEn',
      label: { 'zh-CN': '英文提示', 'en-US': 'English message' },
      example: 'The ID number is already registered',
    },
    { key: 'showType', label: { 'zh-CN': '展示方式', 'en-US': 'Show type' }, example: '2' },
    { key: 'status', label: { 'zh-CN': '状态', 'en-US': 'Status' }, example: 'enabled' },
    { key: 'source', label: { 'zh-CN': '来源', 'en-US': 'Source' }, only: 'export' },
  ],
};
