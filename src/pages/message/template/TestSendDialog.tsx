import { useIntl } from '@umijs/max';
import { type ButtonProps, Modal, Typography } from 'antd';
import { useState } from 'react';
import { ignoreShownError } from '@/utils/request';
import { type MessageTemplate, testSend } from './descriptor';
import { SampleValues, useNotifiableItems } from './TemplateForm';

/**
 * The test send: the template to the signed-in user, with sample values for its variables (those left empty take the
 * business item's examples on the server); the server's answer is shown as it came.
 */
export default function TestSendDialog({ template, onClose }: { template?: MessageTemplate; onClose: () => void }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { data: items = [] } = useNotifiableItems();
  const [values, setValues] = useState<Record<string, string>>({});
  const [answer, setAnswer] = useState<unknown>();
  const [sending, setSending] = useState(false);
  const close = () => {
    setValues({});
    setAnswer(undefined);
    onClose();
  };
  const send = async () => {
    if (!template) return;
    setSending(true);
    try {
      const params = Object.fromEntries(Object.entries(values).filter(([, v]) => v !== ''));
      setAnswer((await testSend(template.id, params)) ?? {});
    } catch {
      // the request layer has shown the refusal
      ignoreShownError();
      setAnswer(undefined);
    } finally {
      setSending(false);
    }
  };
  return (
    <Modal
      open={Boolean(template)}
      title={`${t('message.template.testSend.title')} · ${template?.name ?? ''}`}
      okText={t('message.template.testSend.send')}
      okButtonProps={{ loading: sending, 'data-testid': 'test-send-submit' } as ButtonProps}
      onOk={send}
      onCancel={close}
      destroyOnHidden
    >
      {template && (
        <SampleValues
          names={template.params}
          item={items.find((b) => b.code === template.businessItemCode)}
          values={values}
          onChange={setValues}
        />
      )}
      {answer !== undefined && (
        <div style={{ marginTop: 12 }} data-testid="test-send-answer">
          <Typography.Text type="secondary">{t('message.template.testSend.answer')}</Typography.Text>
          <pre style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{JSON.stringify(answer, null, 2)}</pre>
        </div>
      )}
    </Modal>
  );
}
