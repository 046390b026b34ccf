import '@/pages/people/catalogue';
import { useIntl } from '@umijs/max';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import { type Unit, unitDescriptor } from './descriptor';
import MergeDialog from './MergeDialog';

/**
 * /units/list: the external work units; search by name, credit code, contact or address; create, edit, delete,
 * export and import; merge duplicates into the unit kept.
 */
export default function UnitPage() {
  const intl = useIntl();
  const actionRef = useRef<TableActions>();
  const [merging, setMerging] = useState<Unit>();
  return (
    <div data-testid="people-unit">
      <ResourceTable<Unit>
        descriptor={unitDescriptor}
        actionRef={actionRef}
        createDefaults={{ status: 'enabled', isPartner: false }}
        rowActions={(row, { can }) =>
          can('people:unit:merge')
            ? [
                <ActionLink key="merge" data-testid="row-merge" onClick={() => setMerging(row)}>
                  {intl.formatMessage({ id: 'people.unit.merge' })}
                </ActionLink>,
              ]
            : []
        }
      />
      <MergeDialog
        record={merging}
        onClose={() => setMerging(undefined)}
        onMerged={() => {
          setMerging(undefined);
          actionRef.current?.reload();
        }}
      />
    </div>
  );
}
