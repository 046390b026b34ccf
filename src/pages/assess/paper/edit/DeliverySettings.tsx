import { useIntl } from '@umijs/max';
import { Card, Checkbox, Col, DatePicker, Form, InputNumber, Radio, Row, Select, Space, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useRef } from 'react';
import { GRADE_METHODS, OVERDUE_HANDLINGS, SHOW_RESULTS } from '../descriptor';

/**
 * How a paper is delivered (docs/domain.md §9.2): its window, attempts and grade, navigation (sequential, and only
 * that, when the paper holds case-analysis questions: `caseAnalysis`), what happens when time is up, when and what
 * candidates see afterwards, and the anti-cheating switches. Fields of the paper form it sits in.
 */
export default function DeliverySettings({ caseAnalysis }: { caseAnalysis: boolean }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const form = Form.useFormInstance();
  const overdue = Form.useWatch('overdueHandling', form);
  const choices = (values: readonly string[], prefix: string) =>
    values.map((value) => ({ value, label: t(`${prefix}.${value}`) }));
  // the user's choice, put aside while case analysis holds the paper to sequential and given back when it no longer can
  const chosen = useRef<string>();
  useEffect(() => {
    const navigation = form.getFieldValue('navigation');
    if (caseAnalysis && navigation !== 'sequential') {
      chosen.current = navigation;
      form.setFieldValue('navigation', 'sequential');
    } else if (!caseAnalysis && chosen.current) {
      form.setFieldValue('navigation', chosen.current);
      chosen.current = undefined;
    }
  }, [caseAnalysis, form]);
  return (
    <Card title={t('assess.paper.delivery')} style={{ marginBottom: 16 }} data-testid="paper-delivery">
      <Row gutter={16}>
        <Col span={6}>
          <Form.Item name="openAt" label={t('assess.paper.openAt')}>
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" data-testid="paper-open-at" />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item
            name="closeAt"
            label={t('assess.paper.closeAt')}
            dependencies={['openAt']}
            rules={[
              ({ getFieldValue }) => ({
                validator: (_rule, value?: Dayjs | null) => {
                  const open = getFieldValue('openAt') as Dayjs | null | undefined;
                  return !value || !open || value.isAfter(open)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('assess.paper.closeAfterOpen')));
                },
              }),
            ]}
          >
            <DatePicker showTime={{ format: 'HH:mm' }} format="YYYY-MM-DD HH:mm" data-testid="paper-close-at" />
          </Form.Item>
        </Col>
        <Col span={4}>
          <Form.Item
            name="maxAttempts"
            label={t('assess.paper.maxAttempts')}
            extra={t('assess.paper.maxAttempts.help')}
          >
            <InputNumber min={0} max={100} precision={0} data-testid="paper-attempts" />
          </Form.Item>
        </Col>
        <Col span={4}>
          <Form.Item name="gradeMethod" label={t('assess.paper.gradeMethod')}>
            <Select data-testid="paper-grade-method" options={choices(GRADE_METHODS, 'assess.paper.gradeMethod')} />
          </Form.Item>
        </Col>
        <Col span={4}>
          <Form.Item
            name="navigation"
            label={t('assess.paper.navigation')}
            extra={caseAnalysis ? t('assess.paper.navigation.forced') : undefined}
          >
            <Radio.Group
              data-testid="paper-navigation"
              options={(['free', 'sequential'] as const).map((value) => ({
                value,
                label: t(`assess.paper.navigation.${value}`),
                disabled: caseAnalysis && value === 'free',
              }))}
            />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name="overdueHandling" label={t('assess.paper.overdueHandling')}>
            <Select data-testid="paper-overdue" options={choices(OVERDUE_HANDLINGS, 'assess.paper.overdueHandling')} />
          </Form.Item>
        </Col>
        {overdue === 'grace_period' && (
          <Col span={4}>
            <Form.Item name="graceSeconds" label={t('assess.paper.graceSeconds')} rules={[{ required: true }]}>
              <InputNumber min={1} max={86400} precision={0} data-testid="paper-grace" />
            </Form.Item>
          </Col>
        )}
        <Col span={6}>
          <Form.Item name="showResult" label={t('assess.paper.showResult')}>
            <Select data-testid="paper-show-result" options={choices(SHOW_RESULTS, 'assess.paper.showResult')} />
          </Form.Item>
        </Col>
        <Col span={8}>
          <Form.Item label={t('assess.paper.reviewOptions')}>
            <Space>
              {(['answers', 'analysis', 'scores'] as const).map((key) => (
                <Form.Item key={key} name={['reviewOptions', key]} valuePropName="checked" noStyle>
                  <Checkbox data-testid={`paper-review-${key}`}>{t(`assess.paper.reviewOptions.${key}`)}</Checkbox>
                </Form.Item>
              ))}
            </Space>
          </Form.Item>
        </Col>
        <Col span={24}>
          <Form.Item label={t('assess.paper.antiCheat')} style={{ marginBottom: 0 }}>
            <Space wrap>
              {(['fullscreen', 'disableCopyPaste', 'randomizePerCandidate'] as const).map((key) => (
                <Form.Item key={key} name={['antiCheat', key]} valuePropName="checked" noStyle>
                  <Checkbox data-testid={`paper-anti-${key}`}>{t(`assess.paper.antiCheat.${key}`)}</Checkbox>
                </Form.Item>
              ))}
              <Typography.Text>{t('assess.paper.antiCheat.maxBlurCount')}</Typography.Text>
              <Form.Item name={['antiCheat', 'maxBlurCount']} noStyle>
                <InputNumber
                  aria-label={t('assess.paper.antiCheat.maxBlurCount')}
                  min={0}
                  max={99}
                  precision={0}
                  size="small"
                  data-testid="paper-anti-blur"
                />
              </Form.Item>
            </Space>
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}
