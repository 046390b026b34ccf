import '@/pages/people/catalogue';
import { useIntl } from '@umijs/max';
import { Button, Drawer } from 'antd';
import { useRef, useState } from 'react';
import ActionLink from '@/components/ActionLink';
import type { TableActions } from '@/components/resource/ListTable';
import ResourceTable from '@/components/resource/ResourceTable';
import message from '@/utils/message';
import { ignoreShownError } from '@/utils/request';
import { AWAITING, EDITABLE, type Qualification, qualificationDescriptor, submitQualification } from './descriptor';
import QualificationDialog, { type Acting } from './QualificationDialog';
import ReviewHistory from './ReviewHistory';

/**
 * /expert/qualifications: the certificates, licences and titles of experts, doctors, staff and trainees, found by
 * holder or number, type, status, or as expiring soon; filed, submitted, approved (one at a time or the chosen ones at
 * once), rejected or returned with a comment, revoked; each with its review history.
 */
export default function QualificationPage() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const actionRef = useRef<TableActions>();
  const [acting, setActing] = useState<Acting>();
  const [history, setHistory] = useState<Qualification>();
  const reload = () => actionRef.current?.reload();
  return (
    <div data-testid="people-qualification">
      <ResourceTable<Qualification>
        descriptor={qualificationDescriptor}
        actionRef={actionRef}
        rowActions={(row, { can }) => [
          EDITABLE.includes(row.reviewStatus) && can('expert:qualification:update') && (
            <ActionLink
              key="submit"
              data-testid="qualification-submit"
              onClick={() =>
                submitQualification(row).then(() => {
                  message.success(t('resource.saved'));
                  reload();
                }, ignoreShownError)
              }
            >
              {t('people.qualification.submit')}
            </ActionLink>
          ),
          AWAITING.includes(row.reviewStatus) && can('expert:qualification:review') && (
            <ActionLink
              key="review"
              data-testid="qualification-review"
              onClick={() => setActing({ action: 'review', row })}
            >
              {t('people.qualification.review')}
            </ActionLink>
          ),
          row.reviewStatus === 'approved' && can('expert:qualification:revoke') && (
            <ActionLink
              key="revoke"
              danger
              data-testid="qualification-revoke"
              onClick={() => setActing({ action: 'revoke', row })}
            >
              {t('people.qualification.revoke')}
            </ActionLink>
          ),
          <ActionLink key="history" data-testid="qualification-history-open" onClick={() => setHistory(row)}>
            {t('people.qualification.history')}
          </ActionLink>,
        ]}
        batchActions={(ids, { can }) => [
          can('expert:qualification:review') && (
            <Button
              key="approve"
              size="small"
              data-testid="batch-approve"
              onClick={() => setActing({ action: 'approve', ids })}
            >
              {t('people.qualification.approveSelected')}
            </Button>
          ),
        ]}
      />
      <QualificationDialog
        acting={acting}
        onClose={() => setActing(undefined)}
        onDone={() => {
          setActing(undefined);
          reload();
        }}
      />
      <Drawer
        open={Boolean(history)}
        width={480}
        title={history && `${t('people.qualification.history')} · ${history.ownerName} · ${history.certNo}`}
        onClose={() => setHistory(undefined)}
        destroyOnHidden
      >
        {history && <ReviewHistory row={history} />}
      </Drawer>
    </div>
  );
}
