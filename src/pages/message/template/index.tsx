import '@/pages/message/catalogue';
import { useIntl } from '@umijs/max';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import { type MessageTemplate, messageTemplateDescriptor } from './descriptor';
import TemplateForm from './TemplateForm';
import TestSendDialog from './TestSendDialog';

/**
 * /message/template: the platform's templates and the tenant's own, by code or name, channel, business item and
 * status; written in a drawer whose fields follow the channel, previewed with sample values, sent to oneself as a test.
 */
export default function MessageTemplatePage() {
  const intl = useIntl();
  const actionRef = useRef<TableActions>();
  const [testing, setTesting] = useState<MessageTemplate>();
  return (
    <div data-testid="message-template">
      <ResourceTable<MessageTemplate>
        descriptor={messageTemplateDescriptor}
        actionRef={actionRef}
        renderForm={(props) => <TemplateForm {...props} />}
        rowActions={(row, { can }) => [
          can('message:template:test-send') && row.status === 'enabled' && (
            <ActionLink key="test-send" data-testid="template-test-send" onClick={() => setTesting(row)}>
              {intl.formatMessage({ id: 'message.template.testSend' })}
            </ActionLink>
          ),
        ]}
      />
      <TestSendDialog template={testing} onClose={() => setTesting(undefined)} />
    </div>
  );
}
