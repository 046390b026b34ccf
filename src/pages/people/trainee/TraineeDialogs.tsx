import { ProFormDatePicker, ProFormRadio, ProFormSelect, ProFormTextArea } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import dayjs from 'dayjs';
import RecordModalForm from '@/components/RecordModalForm';
import { dictEnum } from '@/components/resource/dict';
import { tutorChoices } from '@/pages/people/doctor/descriptor';
import {
  assignTutor,
  auditTrainee,
  auditTrainees,
  type Trainee,
  transitionTrainee,
  transitionTrainees,
} from './descriptor';

/**
 * What a dialog does to whom: a lifecycle move (where to, why, from when: kept in the history), a decision of the
 * registration audit at its current level, or a tutor; to one trainee (its version guards the change) or to several
 * chosen in the list (all of them or none).
 */
export type Acting =
  | { action: 'transition' | 'audit'; row: Trainee }
  | { action: 'transition' | 'audit' | 'tutor'; ids: string[] };

interface Props {
  acting?: Acting;
  onClose: () => void;
  onDone: () => void;
}

/** An approval or a rejection, with a comment: a registration's audit, a change of base. */
export function DecisionFields() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  return (
    <>
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
    </>
  );
}

/** The lifecycle move or audit decision of `acting`; a refusal (a move not allowed, a stale record) is said by it. */
export default function TraineeActionDialog({ acting, onClose, onDone }: Props) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const statuses = dictEnum('trainee_status');
  const one = acting && 'row' in acting ? acting.row : undefined;
  const ids = acting && 'ids' in acting ? acting.ids : [];
  const transition = acting?.action === 'transition';
  const tutor = acting?.action === 'tutor';
  const titles = {
    transition: 'people.trainee.transition',
    audit: 'people.trainee.audit',
    tutor: 'people.trainee.assignTutor',
  };
  const choices = (one ? one.nextStatuses : [...statuses.keys()]).map((value) => ({
    value,
    label: statuses.get(value)?.text ?? value,
  }));
  return (
    <RecordModalForm<Record<string, string>>
      record={acting && { id: `${acting.action}:${one?.id ?? 'batch'}` }}
      title={t(titles[acting?.action ?? 'audit'])}
      initialValues={
        transition ? { effectiveDate: dayjs().format('YYYY-MM-DD') } : tutor ? {} : { decision: 'approve' }
      }
      submitTestId={`${acting?.action ?? 'audit'}-submit`}
      save={(values) => {
        // the form's fields are the body's: the server checks them (a refusal shows on its field)
        const body = values as never;
        const many = { ...values, ids } as never;
        if (tutor) return assignTutor({ ids, tutorDoctorId: values.tutorDoctorId || null });
        if (transition) return one ? transitionTrainee(one, body) : transitionTrainees(many);
        return one ? auditTrainee(one, body) : auditTrainees(many);
      }}
      onClose={onClose}
      onSaved={onDone}
    >
      {tutor ? (
        <ProFormSelect
          name="tutorDoctorId"
          label={t('people.trainee.tutorDoctorId')}
          showSearch
          allowClear
          placeholder={t('people.trainee.assignTutor.none')}
          request={({ keyWords }) => tutorChoices(keyWords)}
          fieldProps={{ filterOption: false, 'data-testid': 'tutor-doctor' } as object}
          params={{}}
          debounceTime={300}
        />
      ) : transition ? (
        <>
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
        </>
      ) : (
        <DecisionFields />
      )}
    </RecordModalForm>
  );
}
