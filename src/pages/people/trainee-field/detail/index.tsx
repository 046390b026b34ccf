import '@/pages/people/catalogue';
import ResourceProfile from '@/components/resource/ResourceProfile';
import { type TraineeField, traineeFieldDescriptor } from '../descriptor';

/** /user/trainee-type-field/:id/detail: a field's definition and its audit trail. */
export default function TraineeFieldDetail() {
  return (
    <div data-testid="trainee-field-detail">
      <ResourceProfile<TraineeField> descriptor={traineeFieldDescriptor} />
    </div>
  );
}
