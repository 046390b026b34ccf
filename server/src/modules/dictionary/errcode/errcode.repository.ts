import type { ListSpec } from '../../../core/resource/list-query';
import { tableRepository } from '../../../core/resource/table.repository';

export const errorCodeList: ListSpec = {
  sort: { code: 'code', key: 'key', module: 'module', httpStatus: 'http_status', updatedAt: 'updated_at' },
  defaultSort: 'code',
  filters: {
    keyword: { kind: 'keyword', columns: ['key', 'message_zh', 'message_en'] },
    module: { kind: 'in', column: 'module', pattern: /^[a-z][a-z0-9-]{0,49}$/ },
    source: { kind: 'in', column: 'source', values: ['built_in', 'manual'] },
    status: { kind: 'in', column: 'status', values: ['enabled', 'disabled'] },
    httpStatus: { kind: 'in', column: 'http_status', pattern: /^[45]\d\d$/ },
  },
};

export const errorCodes = tableRepository({
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
});
