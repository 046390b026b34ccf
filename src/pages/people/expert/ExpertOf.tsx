import { ProFormDatePicker, ProFormSelect, ProFormText } from '@ant-design/pro-components';
import { Link, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Button, Card, Descriptions, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import RecordModalForm from '@/components/RecordModalForm';
import { dictEnum } from '@/components/resource/dict';
import { useCanCheck } from '@/hooks/useCan';
import { ignoreShownError } from '@/utils/request';
import { type Expert, experts, type PromoteExpert, promoteDoctor } from './descriptor';

/**
 * A doctor's place in the expert pool: their expert record (level, roles, status, term), or, for whoever may, their
 * promotion (nominated, applied: reviewed and activated from the expert's profile).
 */
export default function ExpertOf({ doctorId }: { doctorId: string }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const can = useCanCheck();
  const canList = can('expert:expert:list');
  const [promoting, setPromoting] = useState(false);
  const { data: expert, refresh } = useRequest<Expert | undefined, []>(
    () =>
      canList
        ? experts.list({ doctorId, current: '1', pageSize: '1' }).then((page) => page.data[0])
        : Promise.resolve(undefined),
    { refreshDeps: [doctorId, canList], onError: ignoreShownError },
  );
  if (!canList) return null;
  const levels = dictEnum('expert_level');
  const roles = dictEnum('expert_role');
  const statuses = dictEnum('expert_status');
  return (
    <Card title={t('people.expert.all')} size="small" data-testid="expert-of">
      {expert ? (
        <Descriptions size="small" column={{ xs: 1, md: 3 }}>
          <Descriptions.Item label={t('people.expert.expertNo')}>
            <Link to={`/expert/users/${expert.id}/profile`} data-testid="expert-of-link">
              {expert.expertNo}
            </Link>
          </Descriptions.Item>
          <Descriptions.Item label={t('people.expert.expertLevel')}>
            {levels.get(expert.expertLevel)?.text ?? expert.expertLevel}
          </Descriptions.Item>
          <Descriptions.Item label={t('people.expert.status')}>
            <Tag color={statuses.get(expert.status)?.color}>{statuses.get(expert.status)?.text ?? expert.status}</Tag>
          </Descriptions.Item>
          <Descriptions.Item label={t('people.expert.roles')}>
            <Space wrap size={4}>
              {expert.roles.map((role) => (
                <Tag key={role}>{roles.get(role)?.text ?? role}</Tag>
              ))}
            </Space>
          </Descriptions.Item>
          <Descriptions.Item label={t('people.expert.termEnd')}>{expert.termEnd ?? '-'}</Descriptions.Item>
        </Descriptions>
      ) : (
        <Space>
          <Typography.Text type="secondary">{t('people.expert.none')}</Typography.Text>
          {can('people:doctor:promote-expert') && (
            <Button data-testid="expert-promote" onClick={() => setPromoting(true)}>
              {t('people.expert.promote')}
            </Button>
          )}
        </Space>
      )}
      <RecordModalForm<PromoteExpert>
        record={promoting ? { id: doctorId } : undefined}
        title={t('people.expert.promote')}
        initialValues={{ expertLevel: 'institutional', roles: [] }}
        submitTestId="expert-promote-submit"
        save={(values, options) => promoteDoctor(doctorId, values, options)}
        onClose={() => setPromoting(false)}
        onSaved={() => {
          setPromoting(false);
          refresh();
        }}
      >
        <ProFormText
          name="expertNo"
          label={t('people.expert.expertNo')}
          rules={[{ required: true, max: 30 }]}
          fieldProps={{ 'data-testid': 'expert-promote-no' } as object}
        />
        <ProFormSelect
          name="specialties"
          label={t('people.expert.specialties')}
          mode="multiple"
          valueEnum={dictEnum('training_specialty')}
          rules={[{ required: true }]}
          fieldProps={{ 'data-testid': 'expert-promote-specialties' } as object}
        />
        <ProFormSelect name="expertLevel" label={t('people.expert.expertLevel')} valueEnum={levels} />
        <ProFormSelect name="roles" label={t('people.expert.roles')} mode="multiple" valueEnum={roles} />
        <ProFormDatePicker name="termStart" label={t('people.expert.termStart')} />
        <ProFormDatePicker name="termEnd" label={t('people.expert.termEnd')} />
      </RecordModalForm>
    </Card>
  );
}
