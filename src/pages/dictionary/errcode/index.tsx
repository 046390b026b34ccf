import '@/pages/dictionary/catalogue';
import ResourceTable from '@/components/resource/ResourceTable';
import { refreshErrCodes } from '@/services/dictionary';
import { ignoreShownError } from '@/utils/request';
import { type ErrorCode, errorCodeDescriptor } from './descriptor';

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
