import '@/pages/dictionary/catalogue';
import type { CreateErrorCode, ErrorCode, UpdateErrorCode } from '@server/modules/dictionary/errcode/errcode.schema';
import ResourceTable from '@/components/resource/ResourceTable';
import { describeResource } from '@/components/resource/types';
import { refreshErrCodes } from '@/services/dictionary';
import { ignoreShownError } from '@/utils/request';

export type { ErrorCode };

const builtIn = (record?: ErrorCode) => record?.source === 'built_in';

/** Error codes (docs/domain.md §3.3): built-in codes keep code, key, module and status; their messages may change. */
const errorCodeDescriptor = describeResource<ErrorCode, CreateErrorCode, UpdateErrorCode>(
  'dictionary/errcode',
  (column) => ({
    auditType: 'error_code',
    recordName: (row) => row.key,
    formLayout: 'DrawerForm',
    allows: (row, action) => action !== 'delete' || row.source === 'manual',
    lockReasonId: 'dictionary.errcode.locked',
    form: {
      create: ['code', 'key', 'module', 'httpStatus', 'messageZh', 'messageEn', 'showType', 'status'],
      update: ['module', 'httpStatus', 'messageZh', 'messageEn', 'showType', 'status'],
    },
    columns: [
      column('keyword', { titleId: 'dictionary.keyword', searchOnly: true }),
      column('code', {
        valueType: 'digit',
        sorter: true,
        hideInSearch: true,
        render: (_dom, row) => row.code,
        fieldProps: { precision: 0, min: 2_000_000, style: { width: '100%' } },
        required: true,
      }),
      column('key', { sorter: true, hideInSearch: true, copyable: true, required: true }),
      column('module', { titleId: 'dictionary.module', sorter: true, formDisabled: builtIn, required: true }),
      column('httpStatus', { valueType: 'digit', sorter: true, formDisabled: builtIn, required: true }),
      column('messageZh', { valueType: 'textarea', hideInSearch: true, ellipsis: true, required: true }),
      column('messageEn', { valueType: 'textarea', hideInSearch: true, ellipsis: true, required: true }),
      column('showType', {
        hideInSearch: true,
        options: [
          { value: 0, labelId: 'dictionary.errcode.showType.0', color: 'default' },
          { value: 1, labelId: 'dictionary.errcode.showType.1', color: 'warning' },
          { value: 2, labelId: 'dictionary.errcode.showType.2', color: 'error' },
          { value: 3, labelId: 'dictionary.errcode.showType.3', color: 'processing' },
          { value: 9, labelId: 'dictionary.errcode.showType.9', color: 'purple' },
        ],
      }),
      column('source', {
        hideInForm: true,
        options: [
          { value: 'built_in', labelId: 'dictionary.errcode.source.built_in', color: 'blue' },
          { value: 'manual', labelId: 'dictionary.errcode.source.manual', color: 'green' },
        ],
      }),
      column('status', { titleId: 'dictionary.status', dict: 'common_status', required: true }),
      column('updatedAt', {
        titleId: 'dictionary.updatedAt',
        valueType: 'dateTime',
        hideInSearch: true,
        hideInForm: true,
        sorter: true,
      }),
    ],
  }),
);

/** /dictionary/errcode: the codes the API answers with; a saved message is what the next error shows. */
export default function ErrorCodePage() {
  return (
    <div data-testid="dictionary-errcode">
      <ResourceTable<ErrorCode>
        descriptor={errorCodeDescriptor}
        createDefaults={{ status: 'enabled', showType: 2 }}
        onChanged={() => {
          refreshErrCodes().catch(ignoreShownError);
        }}
      />
    </div>
  );
}
