import '@/pages/people/catalogue';
import { useParams } from '@umijs/max';
import ResourceProfile from '@/components/resource/ResourceProfile';
import { type TraineeField, traineeFieldDescriptor, traineeFields } from '../descriptor';

/** /user/trainee-type-field/:id/detail: a field's definition and its audit trail. */
export default function TraineeFieldDetail() {
  const { id = '' } = useParams<{ id: string }>();
  return (
    <div data-testid="trainee-field-detail">
      <ResourceProfile<TraineeField> descriptor={traineeFieldDescriptor} id={id} service={traineeFields} />
    </div>
  );
}
