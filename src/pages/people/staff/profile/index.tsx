import '@/pages/people/catalogue';
import { Link, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, Descriptions, Empty, Space, Tag, Timeline, Typography } from 'antd';
import { useState } from 'react';
import OnceSecretModal from '@/components/OnceSecretModal';
import { dictEnum } from '@/components/resource/dict';
import ResourceProfile from '@/components/resource/ResourceProfile';
import { useCanCheck } from '@/hooks/useCan';
import IdNumber from '@/pages/people/person/IdNumber';
import { formatDateTime } from '@/utils/dates';
import { ignoreShownError } from '@/utils/request';
import { fetchStaffHistory, revealStaffIdNo, type Staff, staffDescriptor } from '../descriptor';
import StaffDialogs, { type StaffAction } from '../StaffDialogs';

/** The account, transfers and status changes of a staff member, and what may be done now. */
function Career({
  row,
  onChanged,
  onPassword,
}: {
  row: Staff;
  onChanged: () => void;
  onPassword: (p: string) => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string>) => intl.formatMessage({ id }, values);
  const can = useCanCheck();
  const [action, setAction] = useState<StaffAction>();
  const { data: history = [] } = useRequest(() => fetchStaffHistory(row.id), {
    refreshDeps: [row.id, row.version],
    onError: ignoreShownError,
  });
  const statuses = dictEnum('staff_status');
  const stateName = (state: string | null) => (state ? (statuses.get(state)?.text ?? state) : '-');
  const working = row.status !== 'left';
  const button = (key: StaffAction, code: Parameters<typeof can>[0], label: string) =>
    working &&
    can(code) && (
      <Button key={key} data-testid={`staff-action-${key}`} onClick={() => setAction(key)}>
        {t(label)}
      </Button>
    );
  return (
    <>
      <Card title={t('people.staff.account')} data-testid="staff-account" size="small">
        {row.adminUserId ? (
          <Space>
            <Typography.Text strong data-testid="staff-account-name">
              {row.adminUserName}
            </Typography.Text>
            {can('system:admin:list') && (
              <Link to={`/system/admin/${row.adminUserId}/profile`}>{t('people.staff.account.open')}</Link>
            )}
          </Space>
        ) : (
          <Space>
            <Typography.Text type="secondary">{t('people.staff.account.none')}</Typography.Text>
            {button('account', 'people:staff:create-account', 'people.staff.account.create')}
            {button('link', 'people:staff:create-account', 'people.staff.account.link')}
          </Space>
        )}
      </Card>
      <Card
        title={t('people.staff.history')}
        data-testid="staff-history"
        extra={
          <Space>
            {button('transfer', 'people:staff:transfer', 'people.staff.transfer')}
            {button('status', 'people:staff:change-status', 'people.staff.changeStatus')}
          </Space>
        }
      >
        {history.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('people.staff.history.empty')} />
        ) : (
          <Timeline
            items={history.map((h) => ({
              key: h.id,
              children: (
                <div data-testid="staff-history-item">
                  <Space wrap>
                    <Tag>
                      {t(`people.staff.history.${h.kind}`, {
                        from: h.kind === 'transfer' ? (h.fromOrgName ?? '-') : stateName(h.fromState),
                        to:
                          h.kind === 'transfer'
                            ? (h.toOrgName ?? '-')
                            : h.kind === 'status'
                              ? stateName(h.toState)
                              : (h.toState ?? '-'),
                      })}
                    </Tag>
                    {h.effectiveDate && <Typography.Text type="secondary">{h.effectiveDate}</Typography.Text>}
                  </Space>
                  {h.reason && <div>{h.reason}</div>}
                  <Typography.Text type="secondary">
                    {h.createdByName ?? '-'} · {formatDateTime(h.createdAt)}
                  </Typography.Text>
                </div>
              ),
            }))}
          />
        )}
      </Card>
      <StaffDialogs
        action={action}
        row={row}
        onClose={() => setAction(undefined)}
        onDone={() => {
          setAction(undefined);
          onChanged();
        }}
        onPassword={onPassword}
      />
    </>
  );
}

/** /user/staff/:id/profile: the staff member, their ID number (shown on request), account, history and audit trail. */
export default function StaffProfile() {
  const intl = useIntl();
  const [version, setVersion] = useState(0);
  const [password, setPassword] = useState<string>();
  return (
    <div data-testid="staff-profile">
      <ResourceProfile<Staff> key={version} descriptor={staffDescriptor}>
        {(row) => (
          <>
            <Card size="small">
              <Descriptions size="small">
                <Descriptions.Item label={intl.formatMessage({ id: 'people.staff.idNo' })}>
                  <IdNumber
                    masked={row.idNoMasked}
                    reveal={() => revealStaffIdNo(row.id)}
                    permission="people:staff:pii-view"
                    testId="staff-id-no"
                  />
                </Descriptions.Item>
              </Descriptions>
            </Card>
            <Career row={row} onChanged={() => setVersion((v) => v + 1)} onPassword={setPassword} />
          </>
        )}
      </ResourceProfile>
      <OnceSecretModal
        shown={password ? { secret: password, values: {} } : undefined}
        titleId="people.staff.account.create"
        noticeId="people.staff.account.password"
        testId="staff-account-password"
        onClose={() => setPassword(undefined)}
      />
    </div>
  );
}
