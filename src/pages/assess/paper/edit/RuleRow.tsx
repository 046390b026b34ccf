import { DeleteOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  InputNumber,
  Radio,
  Row,
  Select,
  Space,
  Tag,
  Typography,
} from 'antd';
import { MEDICAL_FORMATS, QUESTION_TYPES } from '../../question/questionForm';
import { TaxonomySelect } from '../../taxonomy/TaxonomyPickers';
import { type Availability, availableText } from '../descriptor';

const LEVELS = ['1', '2', '3', '4', '5'] as const;

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
  /** How many questions of each level (a mix instead of a range); null or absent: a range. */
  difficultyMix?: Partial<Record<(typeof LEVELS)[number], number | null>> | null;
  count?: number;
  score?: number;
  /** Leave out the questions a paper published in the last N days used. */
  excludeUsedWithinDays?: number | null;
}

/** A mix's levels with a count, as the body sends them (null: the rule asks a range). */
export const mixOf = (rule: RuleValue): Record<string, number> | null => {
  if (!rule.difficultyMix) return null;
  return Object.fromEntries(Object.entries(rule.difficultyMix).filter(([, n]) => (n ?? 0) > 0)) as Record<
    string,
    number
  >;
};

/**
 * One random rule of a section: what its questions must match (difficulty as a range or as a mix of levels), how many
 * and the score of each, with how many ready questions of the bank match it now and whether the paper's rules together
 * can be met (`answer`, asked by the form for all its rules at once, the paper's own questions left out; `together`:
 * the names of the other rules it competes with for too few questions).
 */
export default function RuleRow({
  path,
  answer,
  together,
  onRemove,
}: {
  path: (string | number)[];
  answer?: Availability;
  together?: string[];
  onRemove: () => void;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, number | string>) => intl.formatMessage({ id }, values);
  const form = Form.useFormInstance();
  const rule = (Form.useWatch(path, form) ?? {}) as RuleValue;
  const available = answer?.available;
  const name = (field: string) => [...path.slice(-1), field];
  const mix = Boolean(rule.difficultyMix);
  const lacking = (level: (typeof LEVELS)[number]) => {
    const found = answer?.levels?.[level];
    return found !== undefined && found < (rule.difficultyMix?.[level] ?? 0);
  };
  const short =
    (available !== undefined && rule.count !== undefined && available < rule.count) ||
    LEVELS.some(lacking) ||
    Boolean(together?.length);
  const mixSum = LEVELS.reduce((sum, level) => sum + (rule.difficultyMix?.[level] ?? 0), 0);
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
          <Form.Item name={name('categoryIds')} label={t('assess.question.categoryId')}>
            <TaxonomySelect kind="category" multiple testId="rule-categories" />
          </Form.Item>
        </Col>
        <Col span={4}>
          <Form.Item name={name('includeSubcategories')} valuePropName="checked" label=" ">
            <Checkbox>{t('assess.paper.rule.subcategories')}</Checkbox>
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name={name('knowledgePointIds')} label={t('assess.question.knowledgePointIds')}>
            <TaxonomySelect kind="knowledge" multiple />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name={name('tags')} label={t('assess.question.tags')}>
            <Select mode="tags" open={false} />
          </Form.Item>
        </Col>
        <Col span={4}>
          <Form.Item name={name('tagMatch')} label={t('assess.paper.rule.tagMatch')}>
            <Radio.Group
              options={(['any', 'all'] as const).map((value) => ({
                value,
                label: t(`assess.paper.rule.tagMatch.${value}`),
              }))}
            />
          </Form.Item>
        </Col>
        <Col span={5}>
          <Form.Item name={name('questionType')} label={t('assess.question.questionType')}>
            <Select
              allowClear
              data-testid="rule-type"
              options={QUESTION_TYPES.map((value) => ({ value, label: t(`assess.question.type.${value}`) }))}
            />
          </Form.Item>
        </Col>
        <Col span={4}>
          <Form.Item name={name('medicalFormat')} label={t('assess.question.medicalFormat')}>
            <Select allowClear options={MEDICAL_FORMATS.map((value) => ({ value, label: value }))} />
          </Form.Item>
        </Col>
        <Col span={5}>
          <Form.Item label={t('assess.question.difficulty')}>
            <Radio.Group
              size="small"
              data-testid="rule-difficulty-mode"
              value={mix ? 'mix' : 'range'}
              onChange={(e) =>
                form.setFieldValue([...path, 'difficultyMix'], e.target.value === 'mix' ? { 3: rule.count ?? 1 } : null)
              }
              options={(['range', 'mix'] as const).map((value) => ({
                value,
                label: t(`assess.paper.rule.difficultyMode.${value}`),
              }))}
            />
            {!mix && (
              <div style={{ marginTop: 4 }}>
                <Form.Item name={name('difficultyMin')} noStyle>
                  <InputNumber min={1} max={5} style={{ width: 60 }} />
                </Form.Item>
                {' – '}
                <Form.Item name={name('difficultyMax')} noStyle>
                  <InputNumber min={1} max={5} style={{ width: 60 }} />
                </Form.Item>
              </div>
            )}
          </Form.Item>
        </Col>
        <Col span={3}>
          <Form.Item name={name('count')} label={t('assess.paper.rule.count')} rules={[{ required: true }]}>
            <InputNumber min={1} max={500} data-testid="rule-count" />
          </Form.Item>
        </Col>
        <Col span={3}>
          <Form.Item name={name('score')} label={t('assess.paper.rule.score')} rules={[{ required: true }]}>
            <InputNumber min={0.5} max={999} step={0.5} data-testid="rule-score" />
          </Form.Item>
        </Col>
        <Col span={6}>
          <Form.Item name={name('excludeUsedWithinDays')} label={t('assess.paper.rule.excludeUsedWithinDays')}>
            <InputNumber min={1} max={3650} precision={0} data-testid="rule-not-used" />
          </Form.Item>
        </Col>
      </Row>
      {mix && (
        <Form.Item
          label={t('assess.paper.rule.mix')}
          name={name('difficultyMix')}
          dependencies={[name('count')]}
          rules={[
            {
              validator: () =>
                mixSum === (rule.count ?? 0)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('assess.paper.rule.mixSum', { sum: mixSum, count: rule.count ?? 0 }))),
            },
          ]}
        >
          <MixLevels
            levels={(level) => ({
              label: t('assess.paper.rule.mixLevel', { level }),
              found: answer?.levels?.[level],
              lacking: lacking(level),
              foundText: (n: number) => t('assess.paper.rule.mixAvailable', { available: n }),
            })}
          />
        </Form.Item>
      )}
      {together?.length && answer?.together ? (
        <Alert
          type="error"
          showIcon
          data-testid="rule-together"
          message={t('assess.paper.rule.together', {
            rules: together.join(intl.locale === 'zh-CN' ? '、' : ', '),
            available: answer.together.available,
            requested: answer.together.requested,
          })}
        />
      ) : null}
    </Card>
  );
}

/** The counts of a mix, one a level, with how many questions each level has (the form item's value and onChange). */
function MixLevels({
  value,
  onChange,
  levels,
}: {
  value?: RuleValue['difficultyMix'];
  onChange?: (next: RuleValue['difficultyMix']) => void;
  levels: (level: (typeof LEVELS)[number]) => {
    label: string;
    found?: number;
    lacking: boolean;
    foundText: (n: number) => string;
  };
}) {
  return (
    <Space wrap data-testid="rule-mix">
      {LEVELS.map((level) => {
        const shown = levels(level);
        return (
          <Space key={level} direction="vertical" size={0}>
            <Typography.Text type="secondary">{shown.label}</Typography.Text>
            <InputNumber
              min={0}
              max={500}
              style={{ width: 72 }}
              data-testid={`rule-mix-${level}`}
              value={value?.[level] ?? null}
              onChange={(n) => onChange?.({ ...value, [level]: n })}
            />
            {shown.found !== undefined && (
              <Typography.Text
                type={shown.lacking ? 'danger' : 'secondary'}
                data-testid={`rule-mix-available-${level}`}
              >
                {shown.foundText(shown.found)}
              </Typography.Text>
            )}
          </Space>
        );
      })}
    </Space>
  );
}
