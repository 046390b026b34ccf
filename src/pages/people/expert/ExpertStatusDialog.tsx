import { ProFormSelect, ProFormTextArea } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { Alert } from 'antd';
import RecordModalForm from '@/components/RecordModalForm';
import { dictEnum } from '@/components/resource/dict';
import { changeExpertStatus, EXPERT_NEXT, type Expert } from './descriptor';

/** One step of an expert's status, with its reason (kept in the audit trail); the record's version guards it. */
export default function ExpertStatusDialog({
  row,
  onClose,
  onDone,
}: {
  /** None: closed. */
  row?: Expert;
  onClose: () => void;
  onDone: () => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const statuses = dictEnum('expert_status');
  const next = row ? EXPERT_NEXT[row.status] : [];
  return (
    <RecordModalForm<{ to: Expert['status']; reason: string }>
      record={row}
      title={t('people.expert.changeStatus')}
      initialValues={{}}
      submitTestId="expert-status-submit"
      save={(values) => changeExpertStatus(row as Expert, values)}
      onClose={onClose}
      onSaved={onDone}
    >
      {row && next.includes('active') && row.approvedQualifications === 0 && (
        <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('people.expert.activationHint')} />
      )}
      <ProFormSelect
        name="to"
        label={t('people.expert.changeStatus.to')}
        options={next.map((value) => ({ value, label: statuses.get(value)?.text ?? value }))}
        rules={[{ required: true }]}
        fieldProps={{ 'data-testid': 'expert-status-to' } as object}
      />
      <ProFormTextArea
        name="reason"
        label={t('people.expert.reason')}
        rules={[{ required: true, max: 500 }]}
        fieldProps={{ 'data-testid': 'expert-status-reason' } as object}
      />
    </RecordModalForm>
  );
}
