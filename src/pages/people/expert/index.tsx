import '@/pages/people/catalogue';
import { useIntl } from '@umijs/max';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import { EXPERT_NEXT, type Expert, expertDescriptor } from './descriptor';
import ExpertStatusDialog from './ExpertStatusDialog';

/**
 * /expert/users: the expert pool, found by name, pinyin, mobile, number or whole ID number, by specialty, role, level
 * or status; created (an external person; doctors are promoted from their profile), edited, exported; each row's
 * status moved with a reason.
 */
export default function ExpertPage() {
  const intl = useIntl();
  const actionRef = useRef<TableActions>();
  const [moving, setMoving] = useState<Expert>();
  return (
    <div data-testid="people-expert">
      <ResourceTable<Expert>
        descriptor={expertDescriptor}
        actionRef={actionRef}
        createDefaults={{ idType: 'resident_id', expertLevel: 'institutional', source: 'nominated', roles: [] }}
        rowActions={(row, { can }) => [
          can('expert:expert:change-status') && EXPERT_NEXT[row.status].length > 0 && (
            <ActionLink key="status" data-testid="expert-change-status" onClick={() => setMoving(row)}>
              {intl.formatMessage({ id: 'people.expert.changeStatus' })}
            </ActionLink>
          ),
        ]}
      />
      <ExpertStatusDialog
        row={moving}
        onClose={() => setMoving(undefined)}
        onDone={() => {
          setMoving(undefined);
          actionRef.current?.reload();
        }}
      />
    </div>
  );
}
