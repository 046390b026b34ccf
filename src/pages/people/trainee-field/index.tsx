import '@/pages/people/catalogue';
import ResourceTable from '@/components/resource/ResourceTable';
import ArchiveLink from './ArchiveLink';
import { type TraineeField, traineeFieldDescriptor } from './descriptor';

/**
 * /user/trainee-type-field: the custom fields of every trainee type; search by key, label or section, by type, kind
 * or status; define, edit, archive or restore, export. A type's own screen orders its fields and previews its form.
 */
export default function TraineeFieldPage() {
  return (
    <div data-testid="people-trainee-field">
      <ResourceTable<TraineeField>
        descriptor={traineeFieldDescriptor}
        createDefaults={{
          fieldType: 'text',
          uniqueScope: 'none',
          visibility: 'self_and_admin',
          exportable: true,
          importable: true,
        }}
        rowActions={(row, { can, reload }) =>
          can('people:trainee-field:archive') ? [<ArchiveLink key="archive" row={row} onDone={reload} />] : []
        }
      />
    </div>
  );
}
