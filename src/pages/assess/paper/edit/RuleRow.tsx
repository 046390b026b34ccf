import { DeleteOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { useDebounceEffect } from 'ahooks';
import { Button, Card, Checkbox, Col, Form, InputNumber, Radio, Row, Select, Tag } from 'antd';
import { useState } from 'react';
import { MEDICAL_FORMATS, QUESTION_TYPES } from '../../question/questionForm';
import { TaxonomySelect } from '../../taxonomy/TaxonomyPickers';
import { type Availability, availableText, checkRules } from '../descriptor';

export interface RuleValue {
  categoryIds?: string[];
  includeSubcategories?: boolean;
  knowledgePointIds?: string[];
  tags?: string[];
  tagMatch?: 'any' | 'all';
  questionType?: string | null;
  medicalFormat?: string | null;
  difficultyMin?: number;
  difficultyMax?: number;
  count?: number;
  score?: number;
}

/**
 * One random rule of a section: what its questions must match, how many and the score of each, with how many ready
 * questions of the bank match it now (asked again a moment after each change; the paper's own questions left out).
 */
export default function RuleRow({
  path,
  placed,
  onRemove,
}: {
  path: (string | number)[];
  placed: string[];
  onRemove: () => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  const form = Form.useFormInstance();
  const rule = (Form.useWatch(path, form) ?? {}) as RuleValue;
  const [answer, setAnswer] = useState<Availability>();
  const available = answer?.available;
  useDebounceEffect(
    () => {
      if (!rule.count || !rule.score) return;
      checkRules({
        rules: [
          {
            ...rule,
            count: rule.count,
            score: rule.score,
            questionType: (rule.questionType ?? null) as never,
            medicalFormat: (rule.medicalFormat ?? null) as never,
          },
        ],
        excludeQuestionIds: placed,
      }).then(
        ([found]) => setAnswer(found),
        () => setAnswer(undefined),
      );
    },
    [JSON.stringify(rule), placed.join()],
    { wait: 400 },
  );
  const short = available !== undefined && rule.count !== undefined && available < rule.count;
  return (
    <Card
      size="small"
      data-testid="paper-rule"
      style={{ marginBottom: 8 }}
      title={
        <span data-testid="rule-available">
          {available === undefined ? (
            t('assess.paper.rule')
          ) : (
            <Tag color={short ? 'error' : 'success'}>{answer && availableText(intl, answer)}</Tag>
          )}
        </span>
      }
      extra={<Button type="text" icon={<DeleteOutlined />} onClick={onRemove} aria-label={t('resource.delete')} />}
    >
      <Row gutter={12}>
        <Col span={8}>
          <Form.Item name={[...path.slice(-1), 'categoryIds']} label={t('assess.question.categoryId')}>
            <TaxonomySelect kind="category" multiple testId="rule-categories" />
          </Form.Item>
        </Col>
        <Col span={4}>
          <Form.Item name={[...path.slice(-1), 'includeSubcategories']} valuePropName="checked" label=" ">
            <Checkbox>{t('assess.paper.rule.subcategories')}</Checkbox>
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name={[...path.slice(-1), 'knowledgePointIds']} label={t('assess.question.knowledgePointIds')}>
            <TaxonomySelect kind="knowledge" multiple />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name={[...path.slice(-1), 'tags']} label={t('assess.question.tags')}>
            <Select mode="tags" open={false} />
          </Form.Item>
        </Col>
        <Col span={4}>
          <Form.Item name={[...path.slice(-1), 'tagMatch']} label={t('assess.paper.rule.tagMatch')}>
            <Radio.Group
              options={(['any', 'all'] as const).map((value) => ({
                value,
                label: t(`assess.paper.rule.tagMatch.${value}`),
              }))}
            />
          </Form.Item>
        </Col>
        <Col span={5}>
          <Form.Item name={[...path.slice(-1), 'questionType']} label={t('assess.question.questionType')}>
            <Select
              allowClear
              data-testid="rule-type"
              options={QUESTION_TYPES.map((value) => ({ value, label: t(`assess.question.type.${value}`) }))}
            />
          </Form.Item>
        </Col>
        <Col span={4}>
          <Form.Item name={[...path.slice(-1), 'medicalFormat']} label={t('assess.question.medicalFormat')}>
            <Select allowClear options={MEDICAL_FORMATS.map((value) => ({ value, label: value }))} />
          </Form.Item>
        </Col>
        <Col span={5}>
          <Form.Item label={t('assess.question.difficulty')}>
            <Form.Item name={[...path.slice(-1), 'difficultyMin']} noStyle>
              <InputNumber min={1} max={5} style={{ width: 60 }} />
            </Form.Item>
            {' – '}
            <Form.Item name={[...path.slice(-1), 'difficultyMax']} noStyle>
              <InputNumber min={1} max={5} style={{ width: 60 }} />
            </Form.Item>
          </Form.Item>
        </Col>
        <Col span={3}>
          <Form.Item
            name={[...path.slice(-1), 'count']}
            label={t('assess.paper.rule.count')}
            rules={[{ required: true }]}
          >
            <InputNumber min={1} max={500} data-testid="rule-count" />
          </Form.Item>
        </Col>
        <Col span={3}>
          <Form.Item
            name={[...path.slice(-1), 'score']}
            label={t('assess.paper.rule.score')}
            rules={[{ required: true }]}
          >
            <InputNumber min={0.5} max={999} step={0.5} data-testid="rule-score" />
          </Form.Item>
        </Col>
      </Row>
    </Card>
  );
}
