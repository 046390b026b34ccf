import { ProFormDatePicker, ProFormRadio, ProFormSelect, ProFormTextArea } from '@ant-design/pro-components';
import type { TraineeStatus } from '@server/modules/people/trainee/trainee.resource';
import { useIntl } from '@umijs/max';
import dayjs from 'dayjs';
import RecordModalForm from '@/components/RecordModalForm';
import { dictEnum } from '@/components/resource/dict';
import { auditTrainee, auditTrainees, type Trainee, transitionTrainee, transitionTrainees } from './descriptor';

/** What a dialog acts on: one trainee (its version guards the change) or several chosen in the list. */
export type Target = { row: Trainee } | { ids: string[] };

interface Props {
  target?: Target;
  onClose: () => void;
  onDone: () => void;
}

const keyOf = (target?: Target) => target && ('row' in target ? { id: target.row.id } : { id: 'batch' });

/** Changes the lifecycle status: where to, why, from when (kept in the trainee's history). */
export function TransitionDialog({ target, onClose, onDone }: Props) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const statuses = dictEnum('trainee_status');
  const choices = (target && 'row' in target ? target.row.nextStatuses : [...statuses.keys()]).map((value) => ({
    value,
    label: statuses.get(value)?.text ?? value,
  }));
  return (
    <RecordModalForm<{ to: TraineeStatus; reason: string; effectiveDate: string }>
      record={keyOf(target)}
      title={t('people.trainee.transition')}
      initialValues={{ effectiveDate: dayjs().format('YYYY-MM-DD') }}
      submitTestId="transition-submit"
      save={(values) =>
        target && 'row' in target
          ? transitionTrainee(target.row, values)
          : transitionTrainees({ ...values, ids: target?.ids ?? [] })
      }
      onClose={onClose}
      onSaved={onDone}
    >
      <ProFormSelect
        name="to"
        label={t('people.trainee.transition.to')}
        options={choices}
        rules={[{ required: true }]}
        fieldProps={{ 'data-testid': 'transition-to' } as object}
      />
      <ProFormTextArea
        name="reason"
        label={t('people.trainee.transition.reason')}
        rules={[{ required: true, max: 500 }]}
        fieldProps={{ 'data-testid': 'transition-reason' } as object}
      />
      <ProFormDatePicker
        name="effectiveDate"
        label={t('people.trainee.transition.effectiveDate')}
        rules={[{ required: true }]}
      />
    </RecordModalForm>
  );
}

/** A decision of the registration audit at its current level, with a comment. */
export function AuditDialog({ target, onClose, onDone }: Props) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  return (
    <RecordModalForm<{ decision: 'approve' | 'reject'; comment?: string }>
      record={keyOf(target)}
      title={t('people.trainee.audit')}
      initialValues={{ decision: 'approve' }}
      submitTestId="audit-submit"
      save={(values) =>
        target && 'row' in target
          ? auditTrainee(target.row, values)
          : auditTrainees({ ...values, ids: target?.ids ?? [] })
      }
      onClose={onClose}
      onSaved={onDone}
    >
      <ProFormRadio.Group
        name="decision"
        label={t('people.trainee.audit.decision')}
        options={[
          { value: 'approve', label: t('people.trainee.audit.approve') },
          { value: 'reject', label: t('people.trainee.audit.reject') },
        ]}
        rules={[{ required: true }]}
      />
      <ProFormTextArea name="comment" label={t('people.trainee.audit.comment')} rules={[{ max: 500 }]} />
    </RecordModalForm>
  );
}
