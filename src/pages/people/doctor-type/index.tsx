import '@/pages/people/catalogue';
import { useIntl } from '@umijs/max';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import { type DoctorType, doctorTypeDescriptor } from './descriptor';
import MoveDoctorsDialog from './MoveDoctorsDialog';

/**
 * /user/doctor-type: doctor types with how many doctors each has; a type without doctors is deleted as usual, one
 * with doctors offers moving them to another type first.
 */
export default function DoctorTypePage() {
  const intl = useIntl();
  const actionRef = useRef<TableActions>();
  const [moving, setMoving] = useState<DoctorType>();
  return (
    <div data-testid="people-doctor-type">
      <ResourceTable<DoctorType>
        descriptor={doctorTypeDescriptor}
        actionRef={actionRef}
        createDefaults={{ status: 'enabled', teacherEligible: false, licenseRequired: false, sort: 0 }}
        rowActions={(row, { can }) =>
          row.doctorCount && can('people:doctor-type:update') && can('people:doctor-type:delete')
            ? [
                <ActionLink key="move" data-testid="row-move-doctors" onClick={() => setMoving(row)}>
                  {intl.formatMessage({ id: 'people.doctor-type.move' })}
                </ActionLink>,
              ]
            : []
        }
      />
      <MoveDoctorsDialog
        record={moving}
        onClose={() => setMoving(undefined)}
        onDone={() => {
          setMoving(undefined);
          actionRef.current?.reload();
        }}
      />
    </div>
  );
}
