import '@/pages/people/catalogue';
import { Link, useIntl } from '@umijs/max';
import { Button, Card, Descriptions } from 'antd';
import { useState } from 'react';
import ResourceProfile from '@/components/resource/ResourceProfile';
import useCan from '@/hooks/useCan';
import IdNumber from '@/pages/people/person/IdNumber';
import QualificationsOf from '@/pages/people/qualification/QualificationsOf';
import { EXPERT_NEXT, type Expert, expertDescriptor, revealExpertIdNo } from '../descriptor';
import ExpertStatusDialog from '../ExpertStatusDialog';

/**
 * /expert/users/:id/profile: the expert, their ID number (shown on request), the doctor they are, their status moved
 * with a reason, the person's qualifications (activation needs an approved one), and the audit trail.
 */
export default function ExpertProfile() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const canMove = useCan('expert:expert:change-status');
  const [version, setVersion] = useState(0);
  const [moving, setMoving] = useState<Expert>();
  return (
    <div data-testid="expert-profile">
      <ResourceProfile<Expert> key={version} descriptor={expertDescriptor}>
        {(row) => (
          <>
            <Card
              size="small"
              extra={
                canMove &&
                EXPERT_NEXT[row.status].length > 0 && (
                  <Button data-testid="expert-change-status" onClick={() => setMoving(row)}>
                    {t('people.expert.changeStatus')}
                  </Button>
                )
              }
            >
              <Descriptions size="small">
                <Descriptions.Item label={t('people.expert.idNo')}>
                  <IdNumber
                    masked={row.idNoMasked}
                    reveal={() => revealExpertIdNo(row.id)}
                    permission="expert:expert:pii-view"
                    testId="expert-id-no"
                  />
                </Descriptions.Item>
                {row.doctorId && (
                  <Descriptions.Item label={t('people.expert.doctorId')}>
                    <Link to={`/doctor/${row.doctorId}/profile`}>{row.name}</Link>
                  </Descriptions.Item>
                )}
              </Descriptions>
            </Card>
            <QualificationsOf personId={row.personId} />
          </>
        )}
      </ResourceProfile>
      <ExpertStatusDialog
        row={moving}
        onClose={() => setMoving(undefined)}
        onDone={() => {
          setMoving(undefined);
          setVersion((v) => v + 1);
        }}
      />
    </div>
  );
}
