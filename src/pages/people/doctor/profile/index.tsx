import '@/pages/people/catalogue';
import { useIntl } from '@umijs/max';
import { Card, Descriptions } from 'antd';
import ResourceProfile from '@/components/resource/ResourceProfile';
import ExpertOf from '@/pages/people/expert/ExpertOf';
import IdNumber from '@/pages/people/person/IdNumber';
import QualificationsOf from '@/pages/people/qualification/QualificationsOf';
import TraineesOf from '@/pages/people/trainee/TraineesOf';
import { type Doctor, doctorDescriptor, revealDoctorIdNo } from '../descriptor';

/**
 * /doctor/:id/profile: the doctor, their ID number (shown on request), their expert record (or promotion), the
 * person's qualifications, the trainees they tutor, and the audit trail.
 */
export default function DoctorProfile() {
  const intl = useIntl();
  return (
    <div data-testid="doctor-profile">
      <ResourceProfile<Doctor> descriptor={doctorDescriptor}>
        {(row) => (
          <>
            <Card size="small">
              <Descriptions size="small">
                <Descriptions.Item label={intl.formatMessage({ id: 'people.doctor.idNo' })}>
                  <IdNumber
                    masked={row.idNoMasked}
                    reveal={() => revealDoctorIdNo(row.id)}
                    permission="people:doctor:pii-view"
                    testId="doctor-id-no"
                  />
                </Descriptions.Item>
              </Descriptions>
            </Card>
            <ExpertOf doctorId={row.id} />
            <QualificationsOf personId={row.personId} />
            <TraineesOf filter={{ tutorDoctorId: row.id }} />
          </>
        )}
      </ResourceProfile>
    </div>
  );
}
