import { ProFormText } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { useRef } from 'react';
import RecordModalForm from '@/components/RecordModalForm';
import { clonePaper, type Paper } from './descriptor';

/** A copy of a paper as a new draft, under the code and title given (a published paper is changed this way). */
export default function CloneDialog({
  paper,
  onClose,
  onDone,
}: {
  paper?: Paper;
  onClose: () => void;
  onDone: (copy: Paper) => void;
}) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const made = useRef<Paper>();
  return (
    <RecordModalForm<{ code: string; title: string }>
      record={paper && { id: `clone:${paper.id}` }}
      title={t('assess.paper.clone')}
      initialValues={{ code: paper ? `${paper.code}-2`.slice(0, 30) : '', title: paper?.title ?? '' }}
      submitTestId="paper-clone-submit"
      save={async (values, options) => {
        if (!paper) return;
        made.current = await clonePaper(paper.id, values, options);
      }}
      onClose={onClose}
      onSaved={() => made.current && onDone(made.current)}
    >
      <ProFormText
        name="code"
        label={t('assess.paper.code')}
        rules={[{ required: true }, { max: 30 }]}
        fieldProps={{ 'data-testid': 'paper-clone-code' } as object}
      />
      <ProFormText name="title" label={t('assess.paper.title')} rules={[{ required: true }, { max: 200 }]} />
    </RecordModalForm>
  );
}
