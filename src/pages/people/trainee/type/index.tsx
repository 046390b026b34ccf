import '@/pages/people/catalogue';
import { Link, useIntl } from '@umijs/max';
import { useRequest } from 'ahooks';
import { Card, Col, Empty, Row, Space, Statistic, Tag } from 'antd';
import { dictEnum } from '@/components/resource/dict';
import { ignoreShownError } from '@/utils/request';
import { fetchCounts } from '../descriptor';

/** /trainee/type: the trainees of each type, by status; each type opens the list of its trainees. */
export default function TraineesByType() {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const { data, loading } = useRequest(fetchCounts, { onError: ignoreShownError });
  const statuses = dictEnum('trainee_status');
  if (!loading && data?.length === 0) return <Empty data-testid="trainee-types-empty" />;
  return (
    <Row gutter={[16, 16]} data-testid="trainee-types">
      {(data ?? []).map((type) => (
        <Col key={type.traineeTypeId} xs={24} md={12} xl={8}>
          <Card
            loading={loading}
            title={type.traineeTypeName}
            data-testid="trainee-type-card"
            extra={
              <Link to={`/trainee/list?traineeTypeId=${type.traineeTypeId}`}>{t('people.trainee.count.open')}</Link>
            }
          >
            <Statistic title={t('people.trainee.count.total')} value={type.total} />
            <Space wrap style={{ marginTop: 12 }}>
              {[...statuses].map(([value, entry]) =>
                type.byStatus[value] ? (
                  <Tag key={value} color={entry.color}>
                    {entry.text} {type.byStatus[value]}
                  </Tag>
                ) : null,
              )}
            </Space>
          </Card>
        </Col>
      ))}
    </Row>
  );
}
