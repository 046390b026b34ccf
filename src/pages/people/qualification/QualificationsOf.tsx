import { useIntl } from '@umijs/max';
import { Tag } from 'antd';
import { dictEnum } from '@/components/resource/dict';
import RecordsOf from '@/pages/people/person/RecordsOf';
import { type Qualification, qualifications } from './descriptor';

/** A person's qualifications, under whichever of their records they were filed (an expert's, a doctor's profile). */
export default function QualificationsOf({ personId }: { personId: string }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const types = dictEnum('qualification_type');
  const statuses = dictEnum('qualification_status');
  const owners = dictEnum('qualification_owner');
  return (
    <RecordsOf<Qualification>
      title={t('people.qualification.of')}
      testId="qualifications-of"
      permission="expert:qualification:list"
      list={qualifications.list}
      filter={{ personId }}
      sort="-validUntil"
      columns={[
        {
          title: t('people.qualification.qualificationType'),
          dataIndex: 'qualificationType',
          render: (type: string) => types.get(type)?.text ?? type,
        },
        { title: t('people.qualification.certNo'), dataIndex: 'certNo' },
        {
          title: t('people.qualification.ownerType'),
          dataIndex: 'ownerType',
          render: (type: string) => owners.get(type)?.text ?? type,
        },
        {
          title: t('people.qualification.validUntil'),
          dataIndex: 'validUntil',
          render: (until: string | null) => until ?? t('people.qualification.permanent'),
        },
        {
          title: t('people.qualification.reviewStatus'),
          dataIndex: 'reviewStatus',
          render: (status: string) => (
            <Tag color={statuses.get(status)?.color}>{statuses.get(status)?.text ?? status}</Tag>
          ),
        },
      ]}
    />
  );
}
