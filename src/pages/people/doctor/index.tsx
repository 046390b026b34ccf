import '@/pages/people/catalogue';
import ResourceTable from '@/components/resource/ResourceTable';
import { DOCTOR_DEFAULTS, type Doctor, doctorDescriptor } from './descriptor';

/** /doctor: the tenant's doctors of every type (the menu the permission tree names 医生); each type's are on its detail. */
export default function DoctorPage() {
  return (
    <div data-testid="people-doctor">
      <ResourceTable<Doctor> descriptor={doctorDescriptor} createDefaults={DOCTOR_DEFAULTS} />
    </div>
  );
}
