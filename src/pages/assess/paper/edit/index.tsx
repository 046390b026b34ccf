import '@/pages/assess/catalogue';
import { PlusOutlined } from '@ant-design/icons';
import { useAccess, useIntl, useParams } from '@umijs/max';
import { useDebounceEffect, useRequest } from 'ahooks';
import {
  Button,
  Card,
  Checkbox,
  Col,
  Form,
  Input,
  InputNumber,
  Radio,
  Row,
  Select,
  Space,
  Statistic,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { type ReactNode, useState } from 'react';
import ItemMoves, { DragHandle, useDragMove } from '@/components/ItemMoves';
import { finishScreen, useRecordFrame } from '@/components/layout/frame';
import RecordNotFound from '@/components/resource/RecordNotFound';
import { validateOrShow } from '@/utils/formErrors';
import message from '@/utils/message';
import { statusOf } from '@/utils/request';
import type { Question } from '../../question/descriptor';
import { FORMATS_OF, MEDICAL_FORMATS, QUESTION_TYPES, stemLine } from '../../question/questionForm';
import {
  type Availability,
  COMPOSE_MODES,
  type CreatePaper,
  checkRules,
  GROUP_SCORINGS,
  type Paper,
  PURPOSES,
  paperDescriptor,
  papers,
  SCORINGS,
} from '../descriptor';
import PaperCloneDialog from '../PaperCloneDialog';
import DeliverySettings from './DeliverySettings';
import QuestionPicker from './QuestionPicker';
import RuleRow, { mixOf, type RuleValue } from './RuleRow';

/** A placed question as the form shows it (what the body sends is its id and score). */
interface SlotValue {
  questionId: string;
  score: number;
  code: string;
  stem: string;
  questionType: string;
  /** Its items (a group's), which a per-item score counts. */
  childCount: number;
}
interface SectionValue {
  title?: string;
  instructions?: string | null;
  defaultScore?: number;
  questionType?: Question['questionType'] | null;
  medicalFormat?: Question['medicalFormat'];
  shuffleQuestions?: boolean | null;
  sequential?: boolean;
  slots?: SlotValue[];
  rules?: RuleValue[];
}
type PaperValues = Omit<CreatePaper, 'sections' | 'openAt' | 'closeAt'> & {
  sections?: SectionValue[];
  openAt?: Dayjs | null;
  closeAt?: Dayjs | null;
};

const toValues = (paper: Paper): PaperValues => ({
  ...paper,
  openAt: paper.openAt ? dayjs(paper.openAt) : null,
  closeAt: paper.closeAt ? dayjs(paper.closeAt) : null,
  sections: (paper.sections ?? []).map((s) => ({
    title: s.title,
    instructions: s.instructions,
    defaultScore: s.defaultScore,
    questionType: s.questionType,
    medicalFormat: s.medicalFormat,
    shuffleQuestions: s.shuffleQuestions,
    sequential: s.sequential,
    slots: s.slots.map((slot) => ({
      questionId: slot.questionId,
      score: slot.score,
      code: slot.code,
      stem: slot.stem,
      questionType: slot.questionType,
      childCount: slot.childCount,
    })),
    // what the server says of each rule now is not the rule
    rules: s.rules.map(
      ({ available: _n, availableCapped: _c, caseAnalysis: _a, levels: _l, together: _t, ...rule }) => rule,
    ),
  })),
});

const toBody = (values: PaperValues): CreatePaper => ({
  code: values.code,
  title: values.title,
  purpose: values.purpose,
  composeMode: values.composeMode,
  passScore: values.passScore,
  durationMinutes: values.durationMinutes,
  shuffleQuestions: values.shuffleQuestions,
  shuffleOptions: values.shuffleOptions,
  multiAnswerScoring: values.multiAnswerScoring,
  groupScoring: values.groupScoring,
  openAt: values.openAt ? dayjs(values.openAt).toISOString() : null,
  closeAt: values.closeAt ? dayjs(values.closeAt).toISOString() : null,
  maxAttempts: values.maxAttempts ?? 0,
  gradeMethod: values.gradeMethod,
  navigation: values.navigation,
  overdueHandling: values.overdueHandling,
  graceSeconds: values.overdueHandling === 'grace_period' ? values.graceSeconds : null,
  showResult: values.showResult,
  reviewOptions: values.reviewOptions,
  antiCheat: values.antiCheat && { ...values.antiCheat, maxBlurCount: values.antiCheat.maxBlurCount ?? 0 },
  instructions: values.instructions || null,
  remark: values.remark || null,
  sections: (values.sections ?? []).map((s) => ({
    title: s.title ?? '',
    instructions: s.instructions || null,
    defaultScore: s.defaultScore,
    questionType: s.questionType || null,
    medicalFormat: s.medicalFormat || null,
    shuffleQuestions: s.shuffleQuestions ?? null,
    sequential: s.sequential ?? false,
    slots: (s.slots ?? []).map(({ questionId, score }) => ({ questionId, score })),
    rules: (s.rules ?? []).map(ruleBody),
  })),
});

/** A rule as the body sends it. */
const ruleBody = (rule: RuleValue) => ({
  ...rule,
  count: rule.count ?? 1,
  score: rule.score ?? 1,
  questionType: (rule.questionType || null) as never,
  medicalFormat: (rule.medicalFormat || null) as never,
  excludeUsedWithinDays: rule.excludeUsedWithinDays || null,
  difficultyMix: mixOf(rule),
});

/**
 * How many questions each rule of the paper may draw now, all the rules asked at once (a moment after each change),
 * so that rules that may draw the same questions are checked together; by the rule's place, `section.rule`.
 */
function useRuleAnswers(sections: SectionValue[], placed: string[], random: boolean) {
  const [answers, setAnswers] = useState<Record<string, Availability>>({});
  const asked = random
    ? sections.flatMap((s, i) =>
        (s.rules ?? []).flatMap((rule, j) => (rule?.count && rule.score ? [{ key: `${i}.${j}`, rule }] : [])),
      )
    : [];
  useDebounceEffect(
    () => {
      if (asked.length === 0) return setAnswers({});
      checkRules({ rules: asked.map(({ rule }) => ruleBody(rule)), excludeQuestionIds: placed }).then(
        (found) => setAnswers(Object.fromEntries(asked.map(({ key }, k) => [key, found[k] as Availability]))),
        () => setAnswers({}),
      );
    },
    [JSON.stringify(asked), placed.join()],
    { wait: 400 },
  );
  /** The rules, by their place, that an answer's `together` names (itself left out). */
  const together = (key: string) =>
    answers[key]?.together?.rules
      .map((k) => asked[k]?.key)
      .filter((other): other is string => !!other && other !== key);
  return { answers, together };
}

/** What a slot is worth in all: a group's items each score the slot's score (`per_item`), or share it. */
const slotPoints = (slot: SlotValue, scoring: Paper['groupScoring'] = 'per_item') =>
  (slot.score ?? 0) * (scoring === 'per_item' && slot.childCount > 0 ? slot.childCount : 1);

/**
 * The paper holds case-analysis questions (placed, drawn by a rule, or a section's own type), or a rule of no type may
 * draw one (its availability says so): it is sequential.
 */
const holdsCaseAnalysis = (sections: SectionValue[], answers: Record<string, Availability>) =>
  sections.some(
    (s) =>
      s.questionType === 'case_analysis' ||
      (s.slots ?? []).some((slot) => slot.questionType === 'case_analysis') ||
      (s.rules ?? []).some((rule) => rule?.questionType === 'case_analysis' || rule?.medicalFormat === 'CASE'),
  ) || Object.values(answers).some((answer) => answer?.caseAnalysis);

const totals = (sections: SectionValue[] = [], scoring?: Paper['groupScoring']) =>
  sections.reduce(
    (sum, s) => ({
      score:
        sum.score +
        (s.slots ?? []).reduce((n, slot) => n + slotPoints(slot, scoring), 0) +
        (s.rules ?? []).reduce((n, rule) => n + (rule.count ?? 0) * (rule.score ?? 0), 0),
      count: sum.count + (s.slots ?? []).length + (s.rules ?? []).reduce((n, rule) => n + (rule.count ?? 0), 0),
    }),
    { score: 0, count: 0 },
  );

/**
 * A section's own rules: the one type or format its questions must have (the picker and new rules follow it), whether
 * its questions are shuffled (as the paper says, or its own way) and answered in order.
 */
function SectionRules({ name, section }: { name: number; section?: SectionValue }) {
  const intl = useIntl();
  const t = (id: string) => intl.formatMessage({ id });
  const type = section?.questionType;
  return (
    <Space wrap style={{ marginBottom: 12 }} data-testid="section-rules">
      <span>{t('assess.paper.section.only')}</span>
      <Form.Item name={[name, 'questionType']} noStyle>
        <Select
          allowClear
          style={{ width: 160 }}
          placeholder={t('assess.question.questionType')}
          // no label: the placeholder's words name it (WCAG 4.1.2)
          aria-label={t('assess.question.questionType')}
          data-testid="section-type"
          options={QUESTION_TYPES.map((value) => ({ value, label: t(`assess.question.type.${value}`) }))}
        />
      </Form.Item>
      <Form.Item name={[name, 'medicalFormat']} noStyle>
        <Select
          allowClear
          style={{ width: 120 }}
          placeholder={t('assess.question.medicalFormat')}
          aria-label={t('assess.question.medicalFormat')}
          data-testid="section-format"
          options={(type ? FORMATS_OF[type].filter((f) => f !== null) : MEDICAL_FORMATS).map((value) => ({
            value,
            label: value,
          }))}
        />
      </Form.Item>
      <span>{t('assess.paper.section.shuffle')}</span>
      <Form.Item name={[name, 'shuffleQuestions']} noStyle>
        <Select
          allowClear
          style={{ width: 140 }}
          aria-label={t('assess.paper.section.shuffle')}
          data-testid="section-shuffle"
          placeholder={t('assess.paper.section.shuffle.paper')}
          options={[
            { value: true, label: t('assess.paper.section.shuffle.yes') },
            { value: false, label: t('assess.paper.section.shuffle.no') },
          ]}
        />
      </Form.Item>
      <Form.Item name={[name, 'sequential']} valuePropName="checked" noStyle>
        <Checkbox data-testid="section-sequential">{t('assess.paper.section.sequential')}</Checkbox>
      </Form.Item>
    </Space>
  );
}

/** `useDragMove` for a list a callback renders (a Form.List's). */
function Dragged({
  move,
  children,
}: {
  move: (from: number, to: number) => void;
  children: (drag: ReturnType<typeof useDragMove>) => ReactNode;
}) {
  return <>{children(useDragMove(move))}</>;
}

/**
 * /exam-paper/add and /exam-paper/edit/:id: one form. The settings, then the sections: each with its fixed questions
 * (picked from the bank with its filters, ordered, scored) and, in a random mode, its rules with how many questions
 * each may draw now; the total score and question count follow every change. The server checks the whole paper again
 * on save; a refusal shows on the field it names.
 */
export default function PaperEditPage() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { id } = useParams<{ id?: string }>();
  const [form] = Form.useForm<PaperValues>();
  const [missing, setMissing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [picking, setPicking] = useState<number>();
  const [cloning, setCloning] = useState(false);
  const access = useAccess();
  const { data: record } = useRequest(() => papers.get(id as string, { shownByCaller: [404] }), {
    ready: Boolean(id),
    refreshDeps: [id],
    onSuccess: (paper) => form.setFieldsValue(toValues(paper)),
    onError: (error) => setMissing(statusOf(error) === 404),
  });
  const frame = useRecordFrame(paperDescriptor.titleId, record?.title, missing);
  const sections = (Form.useWatch('sections', form) ?? []) as SectionValue[];
  const mode = Form.useWatch('composeMode', form);
  const groupScoring = Form.useWatch('groupScoring', form) as Paper['groupScoring'] | undefined;
  const { answers, together } = useRuleAnswers(
    sections,
    sections.flatMap((s) => (s.slots ?? []).map((slot) => slot.questionId)),
    Boolean(mode && mode !== 'manual'),
  );
  if (missing) return <RecordNotFound backPath={frame?.backPath} />;
  const placed = sections.flatMap((s) => (s.slots ?? []).map((slot) => slot.questionId));
  const sum = totals(sections, groupScoring);
  const ruleName = (key: string) => {
    const [section, rule] = key.split('.').map((n) => Number(n) + 1);
    return t('assess.paper.rule.name', { section: section ?? 1, rule: rule ?? 1 });
  };
  const frozen = record && record.status !== 'draft';

  const pick = (section: number, rows: Question[]) => {
    const current: SectionValue = form.getFieldValue(['sections', section]) ?? {};
    const score = current.defaultScore ?? 1;
    const fresh = rows
      .filter((q) => !placed.includes(q.id))
      .map((q) => ({
        questionId: q.id,
        score,
        code: q.code,
        stem: q.stem,
        questionType: q.questionType,
        childCount: q.childCount,
      }));
    form.setFieldValue(['sections', section, 'slots'], [...(current.slots ?? []), ...fresh]);
    setPicking(undefined);
  };

  const save = async () => {
    if (!(await validateOrShow(form))) return;
    const body = toBody(form.getFieldsValue(true));
    setSaving(true);
    /** The server's objections on the fields they name; one on no field of the form (a slot) is said by a message. */
    const placeFieldErrors = (fields: { field: string; message: string }[]) => {
      const registered = new Set(form.getFieldsError().map(({ name }) => name.join('.')));
      const named = fields.filter(({ field }) => registered.has(field));
      form.setFields(
        named.map(({ field, message: text }) => ({
          name: field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) as never,
          errors: [text],
        })),
      );
      return named.length === fields.length;
    };
    const saved = await (record
      ? papers.update(record.id, { ...body, version: record.version }, { placeFieldErrors })
      : papers.create(body, { placeFieldErrors })
    ).then(
      (row: Paper) => row,
      () => undefined,
    );
    setSaving(false);
    if (!saved) return;
    message.success(t('resource.saved'));
    finishScreen(frame, `/exam-paper/${saved.id}/profile`);
  };

  return (
    <div data-testid="paper-edit">
      <Form<PaperValues>
        form={form}
        layout="vertical"
        disabled={frozen}
        initialValues={{
          purpose: 'practice',
          composeMode: 'manual',
          durationMinutes: 60,
          multiAnswerScoring: 'all_or_nothing',
          groupScoring: 'per_item',
          maxAttempts: 0,
          gradeMethod: 'highest',
          navigation: 'free',
          overdueHandling: 'auto_submit',
          showResult: 'after_close',
          reviewOptions: { answers: false, analysis: false, scores: true },
          antiCheat: { fullscreen: false, maxBlurCount: 0, disableCopyPaste: false, randomizePerCandidate: false },
          sections: [{ title: t('assess.paper.section.first'), defaultScore: 1, slots: [], rules: [] }],
        }}
      >
        <Card title={t('assess.paper.settings')} style={{ marginBottom: 16 }}>
          <Row gutter={16}>
            <Col span={6}>
              <Form.Item name="code" label={t('assess.paper.code')} rules={[{ required: true }, { max: 30 }]}>
                <Input data-testid="paper-code" />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="title" label={t('assess.paper.title')} rules={[{ required: true }, { max: 200 }]}>
                <Input data-testid="paper-title" />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item name="purpose" label={t('assess.paper.purpose')}>
                <Select options={PURPOSES.map((value) => ({ value, label: t(`assess.paper.purpose.${value}`) }))} />
              </Form.Item>
            </Col>
            <Col span={12}>
              <Form.Item name="composeMode" label={t('assess.paper.composeMode')}>
                <Radio.Group
                  data-testid="paper-mode"
                  options={COMPOSE_MODES.map((value) => ({ value, label: t(`assess.paper.composeMode.${value}`) }))}
                />
              </Form.Item>
            </Col>
            <Col span={4}>
              <Form.Item
                name="passScore"
                label={t('assess.paper.passScore')}
                dependencies={['sections']}
                rules={[
                  { required: true },
                  {
                    validator: (_rule, value?: number) =>
                      value === undefined || value === null || sum.score === 0 || value <= sum.score
                        ? Promise.resolve()
                        : Promise.reject(new Error(t('assess.paper.passOver', { total: sum.score }))),
                  },
                ]}
              >
                <InputNumber min={0.5} max={9999} step={0.5} data-testid="paper-pass" />
              </Form.Item>
            </Col>
            <Col span={4}>
              <Form.Item name="durationMinutes" label={t('assess.paper.durationMinutes')} rules={[{ required: true }]}>
                <InputNumber min={1} max={1440} />
              </Form.Item>
            </Col>
            <Col span={4}>
              <Space direction="vertical">
                <Form.Item name="shuffleQuestions" valuePropName="checked" noStyle>
                  <Checkbox>{t('assess.paper.shuffleQuestions')}</Checkbox>
                </Form.Item>
                <Form.Item name="shuffleOptions" valuePropName="checked" noStyle>
                  <Checkbox>{t('assess.paper.shuffleOptions')}</Checkbox>
                </Form.Item>
              </Space>
            </Col>
            <Col span={6}>
              <Form.Item name="multiAnswerScoring" label={t('assess.paper.multiAnswerScoring')}>
                <Select
                  data-testid="paper-scoring"
                  options={SCORINGS.map((value) => ({ value, label: t(`assess.paper.multiAnswerScoring.${value}`) }))}
                />
              </Form.Item>
            </Col>
            <Col span={6}>
              <Form.Item
                name="groupScoring"
                label={t('assess.paper.groupScoring')}
                extra={t('assess.paper.groupScoring.help')}
              >
                <Select
                  data-testid="paper-group-scoring"
                  options={GROUP_SCORINGS.map((value) => ({ value, label: t(`assess.paper.groupScoring.${value}`) }))}
                />
              </Form.Item>
            </Col>
            <Col span={24}>
              <Form.Item name="instructions" label={t('assess.paper.instructions')}>
                <Input.TextArea rows={2} maxLength={5000} />
              </Form.Item>
            </Col>
          </Row>
        </Card>
        <DeliverySettings caseAnalysis={holdsCaseAnalysis(sections, answers)} />

        <Form.List name="sections">
          {(fields, { add, remove, move }) => (
            <Dragged move={move}>
              {(drag) => (
                <>
                  {fields.map((field, i) => (
                    <Card
                      key={field.key}
                      data-testid="paper-section"
                      style={{ marginBottom: 16 }}
                      {...drag.target(i)}
                      title={
                        <Space>
                          {!frozen && (
                            <DragHandle
                              {...drag.handle(i)}
                              title={t('assess.paper.dragToOrder')}
                              testId="section-drag"
                            />
                          )}
                          <span>{i + 1}.</span>
                          <Form.Item name={[field.name, 'title']} noStyle rules={[{ required: true }]}>
                            <Input
                              aria-label={t('assess.paper.section.title')}
                              data-testid="section-title"
                              style={{ width: 240 }}
                              maxLength={100}
                            />
                          </Form.Item>
                          <span>{t('assess.paper.section.defaultScore')}</span>
                          <Form.Item name={[field.name, 'defaultScore']} noStyle>
                            <InputNumber
                              aria-label={t('assess.paper.section.defaultScore')}
                              min={0.5}
                              max={999}
                              step={0.5}
                            />
                          </Form.Item>
                        </Space>
                      }
                      extra={
                        <ItemMoves
                          index={i}
                          count={fields.length}
                          move={move}
                          remove={() => remove(field.name)}
                          confirmRemove={
                            sections[i]?.slots?.length || sections[i]?.rules?.length
                              ? t('assess.paper.section.removeConfirm')
                              : undefined
                          }
                        />
                      }
                    >
                      <Form.Item name={[field.name, 'instructions']}>
                        <Input placeholder={t('assess.paper.section.instructions')} maxLength={1000} />
                      </Form.Item>
                      <SectionRules name={field.name} section={sections[i]} />
                      <Form.List name={[field.name, 'slots']}>
                        {(slots, slotOps) => (
                          <Dragged move={slotOps.move}>
                            {(slotDrag) => (
                              <Table
                                size="small"
                                pagination={false}
                                rowKey="key"
                                data-testid="section-slots"
                                dataSource={slots}
                                locale={{ emptyText: t('assess.paper.section.noQuestions') }}
                                onRow={(_slot, j) =>
                                  ({ ...slotDrag.target(j ?? 0), 'data-testid': 'slot-row' }) as never
                                }
                                columns={[
                                  {
                                    width: 32,
                                    render: (_v, _slot, j) =>
                                      !frozen && (
                                        <DragHandle
                                          {...slotDrag.handle(j)}
                                          title={t('assess.paper.dragToOrder')}
                                          testId="slot-drag"
                                        />
                                      ),
                                  },
                                  {
                                    title: t('assess.question.code'),
                                    width: 120,
                                    render: (_v, slot) => sections[i]?.slots?.[slot.name]?.code,
                                  },
                                  {
                                    title: t('assess.question.stem'),
                                    ellipsis: true,
                                    render: (_v, slot) => (
                                      <span data-testid="slot-stem">
                                        {stemLine(sections[i]?.slots?.[slot.name]?.stem ?? '')}
                                      </span>
                                    ),
                                  },
                                  {
                                    title: t('assess.question.questionType'),
                                    width: 150,
                                    render: (_v, slot) => {
                                      const type = sections[i]?.slots?.[slot.name]?.questionType;
                                      return type && <Tag>{t(`assess.question.type.${type}`)}</Tag>;
                                    },
                                  },
                                  {
                                    title: t('assess.paper.rule.score'),
                                    width: 150,
                                    render: (_v, slot) => {
                                      const placedSlot = sections[i]?.slots?.[slot.name];
                                      const items = placedSlot?.childCount ?? 0;
                                      return (
                                        <Space size={4}>
                                          <Form.Item name={[slot.name, 'score']} noStyle rules={[{ required: true }]}>
                                            <InputNumber
                                              aria-label={t('assess.paper.slot.points')}
                                              min={0.5}
                                              max={999}
                                              step={0.5}
                                              size="small"
                                            />
                                          </Form.Item>
                                          {items > 0 && placedSlot && (
                                            <Typography.Text type="secondary" data-testid="slot-points">
                                              {groupScoring === 'split'
                                                ? t('assess.paper.slot.split', { items })
                                                : t('assess.paper.slot.perItem', {
                                                    items,
                                                    points: slotPoints(placedSlot, groupScoring),
                                                  })}
                                            </Typography.Text>
                                          )}
                                        </Space>
                                      );
                                    },
                                  },
                                  {
                                    width: 120,
                                    render: (_v, slot, j) => (
                                      <ItemMoves
                                        size="small"
                                        index={j}
                                        count={slots.length}
                                        move={slotOps.move}
                                        remove={() => slotOps.remove(slot.name)}
                                      />
                                    ),
                                  },
                                ]}
                              />
                            )}
                          </Dragged>
                        )}
                      </Form.List>
                      <Space style={{ margin: '8px 0 16px' }}>
                        <Button icon={<PlusOutlined />} data-testid="section-pick" onClick={() => setPicking(i)}>
                          {t('assess.paper.pick')}
                        </Button>
                      </Space>
                      {mode !== 'manual' && (
                        <Form.List name={[field.name, 'rules']}>
                          {(rules, ruleOps) => (
                            <>
                              {rules.map((rule) => (
                                <RuleRow
                                  key={rule.key}
                                  path={['sections', field.name, 'rules', rule.name]}
                                  answer={answers[`${i}.${rule.name}`]}
                                  together={together(`${i}.${rule.name}`)?.map(ruleName)}
                                  onRemove={() => ruleOps.remove(rule.name)}
                                />
                              ))}
                              <Button
                                type="dashed"
                                icon={<PlusOutlined />}
                                data-testid="section-add-rule"
                                onClick={() =>
                                  ruleOps.add({
                                    includeSubcategories: true,
                                    tagMatch: 'any',
                                    difficultyMin: 1,
                                    difficultyMax: 5,
                                    count: 5,
                                    score: sections[i]?.defaultScore ?? 1,
                                    // a section of one type or format draws that type or format
                                    questionType: sections[i]?.questionType ?? null,
                                    medicalFormat: sections[i]?.medicalFormat ?? null,
                                  })
                                }
                              >
                                {t('assess.paper.rule.add')}
                              </Button>
                            </>
                          )}
                        </Form.List>
                      )}
                    </Card>
                  ))}
                  <Button
                    type="dashed"
                    block
                    icon={<PlusOutlined />}
                    data-testid="paper-add-section"
                    onClick={() =>
                      add({
                        title: t('assess.paper.section.new', { n: fields.length + 1 }),
                        defaultScore: 1,
                        slots: [],
                        rules: [],
                      })
                    }
                  >
                    {t('assess.paper.section.add')}
                  </Button>
                </>
              )}
            </Dragged>
          )}
        </Form.List>
      </Form>
      <Card style={{ marginTop: 16 }}>
        <Space size={48} align="center">
          <Statistic title={t('assess.paper.totalScore')} value={sum.score} data-testid="paper-total" />
          <Statistic title={t('assess.paper.questionCount')} value={sum.count} />
          {frozen ? (
            <Space>
              <Typography.Text type="warning">{t('assess.paper.locked')}</Typography.Text>
              {access['assess:paper:clone'] && (
                <Button data-testid="paper-edit-clone" onClick={() => setCloning(true)}>
                  {t('assess.paper.clone')}
                </Button>
              )}
            </Space>
          ) : (
            <Button type="primary" data-testid="paper-save" loading={saving} onClick={save}>
              {t('assess.question.save')}
            </Button>
          )}
        </Space>
      </Card>
      <PaperCloneDialog paper={cloning ? record : undefined} onClose={() => setCloning(false)} />
      <QuestionPicker
        open={picking !== undefined}
        placed={placed}
        only={
          picking === undefined
            ? undefined
            : { questionType: sections[picking]?.questionType, medicalFormat: sections[picking]?.medicalFormat }
        }
        onClose={() => setPicking(undefined)}
        onPick={(rows) => picking !== undefined && pick(picking, rows)}
      />
    </div>
  );
}
