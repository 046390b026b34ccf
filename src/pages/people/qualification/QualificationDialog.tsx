import { ProFormDependency, ProFormRadio, ProFormTextArea } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { Form } from 'antd';
import AttachmentLinks from '@/components/file/AttachmentLinks';
import RecordModalForm from '@/components/RecordModalForm';
import { approveQualifications, type Qualification, reviewQualification, revokeQualification } from './descriptor';

/** A decision on one submitted record, the revocation of an approved one, or the approval of several at once. */
export type Acting = { action: 'review' | 'revoke'; row: Qualification } | { action: 'approve'; ids: string[] };

interface Props {
  acting?: Acting;
  onClose: () => void;
  onDone: () => void;
}

/** The review step of `acting`, with its comment (required to reject, return or revoke); the server keeps both. */
export default function QualificationDialog({ acting, onClose, onDone }: Props) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const action = acting?.action ?? 'review';
  const titles = {
    review: 'people.qualification.review',
    revoke: 'people.qualification.revoke',
    approve: 'people.qualification.approveSelected',
  };
  return (
    <RecordModalForm<{ decision?: string; comment?: string }>
      record={acting && { id: `${action}:${'row' in acting ? acting.row.id : acting.ids.join(',')}` }}
      title={t(titles[action])}
      initialValues={action === 'review' ? { decision: 'approve' } : {}}
      submitTestId={`qualification-${action}-submit`}
      save={({ decision = 'approve', comment }) => {
        if (!acting) return Promise.resolve();
        if (acting.action === 'approve') return approveQualifications(acting.ids, comment);
        if (acting.action === 'revoke') return revokeQualification(acting.row, comment ?? '');
        return reviewQualification(acting.row, { decision, ...(comment && { comment }) });
      }}
      onClose={onClose}
      onSaved={onDone}
    >
      {acting && 'row' in acting && (
        <Form.Item label={t('people.qualification.attachmentFileIds')}>
          <AttachmentLinks source={`/api/people/qualification/${acting.row.id}/attachments`} />
        </Form.Item>
      )}
      {action === 'review' && (
        <ProFormRadio.Group
          name="decision"
          label={t('people.qualification.decision')}
          options={(['approve', 'reject', 'return'] as const).map((value) => ({
            value,
            label: t(`people.qualification.${value}`),
          }))}
          rules={[{ required: true }]}
          fieldProps={{ 'data-testid': 'qualification-decision' } as object}
        />
      )}
      <ProFormDependency name={['decision']}>
        {({ decision }) => (
          <ProFormTextArea
            name="comment"
            label={t('people.qualification.comment')}
            rules={[{ required: action === 'revoke' || (action === 'review' && decision !== 'approve') }, { max: 500 }]}
            fieldProps={{ 'data-testid': 'qualification-comment' } as object}
          />
        )}
      </ProFormDependency>
    </RecordModalForm>
  );
}
