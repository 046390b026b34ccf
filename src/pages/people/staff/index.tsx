import '@/pages/people/catalogue';
import ResourceTable from '@/components/resource/ResourceTable';
import { type Staff, staffDescriptor } from './descriptor';

/**
 * /user/staff: the staff, found by name, pinyin or initials, mobile, number or whole ID number, by department, position
 * or status; created, edited, exported and imported (by ID number); transfers, status and accounts on the profile.
 */
export default function StaffPage() {
  return (
    <div data-testid="people-staff">
      <ResourceTable<Staff>
        descriptor={staffDescriptor}
        createDefaults={{ employmentType: 'full_time', isTeacher: false, idType: 'resident_id' }}
      />
    </div>
  );
}
