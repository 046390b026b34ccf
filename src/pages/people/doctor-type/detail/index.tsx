import '@/pages/people/catalogue';
import { useIntl } from '@umijs/max';
import { Card } from 'antd';
import ResourceProfile from '@/components/resource/ResourceProfile';
import ResourceTable from '@/components/resource/ResourceTable';
import { DOCTOR_DEFAULTS, type Doctor, doctorDescriptor } from '@/pages/people/doctor/descriptor';
import { type DoctorType, doctorTypeDescriptor } from '../descriptor';

/** /user/doctor-type/:id/detail: the type, and its doctors (found, created, edited, exported, imported here). */
export default function DoctorTypeDetail() {
  const intl = useIntl();
  return (
    <div data-testid="doctor-type-detail">
      <ResourceProfile<DoctorType> descriptor={doctorTypeDescriptor}>
        {(type) => (
          <Card title={intl.formatMessage({ id: 'people.doctor-type.doctors' })} data-testid="doctor-type-doctors">
            <ResourceTable<Doctor>
              descriptor={doctorDescriptor}
              params={{ doctorTypeId: type.id }}
              createDefaults={{ ...DOCTOR_DEFAULTS, doctorTypeId: type.id }}
            />
          </Card>
        )}
      </ResourceProfile>
    </div>
  );
}
