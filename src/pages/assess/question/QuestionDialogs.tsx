import { ProForm, ProFormDependency, ProFormRadio, ProFormSelect, ProFormTextArea } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import RecordModalForm from '@/components/RecordModalForm';
import { TaxonomySelect } from '../taxonomy/TaxonomyPickers';
import { bulkUpdateQuestions, type Question, reviewQuestion } from './descriptor';
import QuestionPreview from './QuestionPreview';
import QuestionTagSelect from './QuestionTagSelect';

/** A decision on a question submitted for review (a comment is required to reject), or a change of the chosen ones. */
export type Acting = { action: 'review'; row: Question } | { action: 'bulk'; ids: string[] };

interface BulkValues extends Record<string, unknown> {
  categoryId?: string;
  difficulty?: number;
  addTags?: string[];
  removeTags?: string[];
  addKnowledgePointIds?: string[];
  removeKnowledgePointIds?: string[];
  status?: 'ready' | 'hidden' | 'retired';
}

export default function QuestionDialogs({
  acting,
  onClose,
  onDone,
}: {
  acting?: Acting;
  onClose: () => void;
  onDone: () => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  if (acting?.action === 'bulk')
    return (
      <RecordModalForm<BulkValues>
        record={{ id: `bulk:${acting.ids.join(',')}` }}
        title={t('assess.question.bulk.title', { count: acting.ids.length })}
        initialValues={{}}
        submitTestId="question-bulk-submit"
        save={(values, options) => {
          const body = Object.fromEntries(
            Object.entries(values).filter(([, v]) => v !== undefined && !(Array.isArray(v) && v.length === 0)),
          );
          return bulkUpdateQuestions({ ids: acting.ids, ...body }, options);
        }}
        onClose={onClose}
        onSaved={onDone}
      >
        <ProForm.Item name="categoryId" label={t('assess.question.bulk.category')}>
          <TaxonomySelect kind="category" />
        </ProForm.Item>
        <ProFormSelect
          name="difficulty"
          label={t('assess.question.difficulty')}
          options={[1, 2, 3, 4, 5].map((value) => ({ value, label: t(`assess.question.difficulty.${value}`) }))}
        />
        <ProForm.Item name="addTags" label={t('assess.question.bulk.addTags')}>
          <QuestionTagSelect multiple testId="bulk-add-tags" />
        </ProForm.Item>
        <ProForm.Item name="removeTags" label={t('assess.question.bulk.removeTags')}>
          <QuestionTagSelect multiple testId="bulk-remove-tags" />
        </ProForm.Item>
        <ProForm.Item name="addKnowledgePointIds" label={t('assess.question.bulk.addKnowledgePoints')}>
          <TaxonomySelect kind="knowledge" multiple />
        </ProForm.Item>
        <ProForm.Item name="removeKnowledgePointIds" label={t('assess.question.bulk.removeKnowledgePoints')}>
          <TaxonomySelect kind="knowledge" multiple testId="bulk-remove-knowledge" />
        </ProForm.Item>
        <ProFormSelect
          name="status"
          label={t('assess.question.status')}
          options={(['ready', 'hidden', 'retired'] as const).map((value) => ({
            value,
            label: t(`assess.question.status.${value}`),
          }))}
        />
      </RecordModalForm>
    );
  const row = acting?.row;
  return (
    <RecordModalForm<{ decision?: 'approve' | 'reject'; comment?: string }>
      record={row && { id: `review:${row.id}` }}
      title={t('assess.question.review')}
      initialValues={{ decision: 'approve' }}
      submitTestId="question-review-submit"
      save={({ decision = 'approve', comment }) =>
        row ? reviewQuestion(row, { decision, ...(comment && { comment }) }) : Promise.resolve()
      }
      onClose={onClose}
      onSaved={onDone}
      savedId={({ decision }) => (decision === 'reject' ? 'assess.question.rejected' : 'assess.question.approved')}
    >
      {row && <QuestionPreview question={row} answerSwitch />}
      <ProFormRadio.Group
        name="decision"
        label={t('assess.question.decision')}
        options={(['approve', 'reject'] as const).map((value) => ({ value, label: t(`assess.question.${value}`) }))}
        rules={[{ required: true }]}
        fieldProps={{ 'data-testid': 'question-decision' } as object}
      />
      <ProFormDependency name={['decision']}>
        {({ decision }) => (
          <ProFormTextArea
            name="comment"
            label={t('assess.question.reviewComment')}
            rules={[{ required: decision === 'reject' }, { max: 500 }]}
            fieldProps={{ 'data-testid': 'question-comment' } as object}
          />
        )}
      </ProFormDependency>
    </RecordModalForm>
  );
}
