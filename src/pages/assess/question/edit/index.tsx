import '@/pages/assess/catalogue';
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Link, useIntl, useParams } from '@umijs/max';
import { useRequest } from 'ahooks';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Form,
  Input,
  InputNumber,
  List,
  Radio,
  Select,
  Space,
  Steps,
  Typography,
} from 'antd';
import { useState } from 'react';
import ItemMoves from '@/components/ItemMoves';
import { finishScreen, useRecordFrame } from '@/components/layout/frame';
import { dictEnum } from '@/components/resource/dict';
import RecordNotFound from '@/components/resource/RecordNotFound';
import { validateOrShow } from '@/utils/formErrors';
import message from '@/utils/message';
import { ignoreShownError, statusOf } from '@/utils/request';
import { TaxonomySelect } from '../../taxonomy/TaxonomyPickers';
import { type Duplicate, EDITABLE, findDuplicates, type Question, questionDescriptor, questions } from '../descriptor';
import { MediaField, QuestionMediaProvider } from '../QuestionMedia';
import QuestionPreview from '../QuestionPreview';
import QuestionTagSelect from '../QuestionTagSelect';
import {
  BLANK,
  blanksIn,
  CHILD_COUNT,
  CHOICE,
  emptyOptions,
  FORMATS_OF,
  fitOptions,
  formFieldOf,
  isGroup,
  optionCount,
  optionRule,
  QUESTION_TYPES,
  type QuestionFormValues,
  SPECIALTY,
  STEPS,
  type Step,
  stepOf,
  toBody,
  toForm,
} from '../questionForm';
import OptionsEditor from './OptionsEditor';

type Path = (string | number)[];
/**
 * The fields each step checks before the next one opens: `own` alone, `nested` with what they hold. Every step stays
 * mounted (its values kept), so a group's items are checked by their parts: stems on the stem step, options and keys
 * on the answer step.
 */
function stepFields(step: Step, items: number): { own: Path[]; nested: Path[] } {
  const each = (part: string) => Array.from({ length: items }, (_, i) => ['children', i, part]);
  switch (step) {
    case 'type':
      return { own: [['questionType'], ['medicalFormat'], ['categoryId']], nested: [] };
    case 'stem':
      return { own: [['stem'], ['children'], ...each('stem')], nested: [] };
    case 'answer':
      return {
        own: each('answerKey'),
        nested: [['options'], ['judgement'], ['blanks'], ['reference'], ['points'], ...each('options')],
      };
    case 'details':
      return {
        own: [
          ['analysis'],
          ...each('analysis'),
          ['difficulty'],
          ['knowledgePointIds'],
          ['tags'],
          ['suggestedScore'],
          ['source'],
          ['specialtyCode'],
          ['syllabusRef'],
          ['sourceYear'],
          ['estimatedSeconds'],
        ],
        nested: [],
      };
    default:
      return { own: [], nested: [] };
  }
}

/**
 * /question/add and /question/edit/:id: one step form for both. 1) type, medical format and category → 2) the stem
 * (a group's case or shared stem and its items) → 3) options and answer as the type needs them → 4) analysis,
 * difficulty, knowledge points, tags → 5) the question as a candidate reads it, with the likely duplicates in the bank;
 * saved there. The server checks the structure and answer again; a refusal opens the step of the field it names.
 */
export default function QuestionEditPage() {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { id } = useParams<{ id?: string }>();
  const [form] = Form.useForm<QuestionFormValues>();
  const [step, setStep] = useState<Step>('type');
  const [missing, setMissing] = useState(false);
  const [saving, setSaving] = useState(false);
  const [duplicates, setDuplicates] = useState<Duplicate[]>([]);
  /** The server refused an exact duplicate: the consent is offered with its reason, found by the preview or not. */
  const [refusedDuplicate, setRefusedDuplicate] = useState(false);
  const { data: record } = useRequest(() => questions.get(id as string, { shownByCaller: [404] }), {
    ready: Boolean(id),
    refreshDeps: [id],
    onSuccess: (row) => form.setFieldsValue(toForm(row)),
    onError: (error) => setMissing(statusOf(error) === 404),
  });
  const frame = useRecordFrame(questionDescriptor.titleId, record?.code, missing);
  const type = Form.useWatch('questionType', form);
  const format = Form.useWatch('medicalFormat', form);
  const stem = Form.useWatch('stem', form);
  const children = Form.useWatch('children', form) ?? [];
  const values = Form.useWatch([], { form, preserve: true }) as QuestionFormValues | undefined;
  if (missing) return <RecordNotFound backPath={frame?.backPath} />;

  const at = STEPS.indexOf(step);
  const group = isGroup(type);

  /** A new type starts with its default format and, for choices, empty options of the format's count. */
  const chooseType = (next: QuestionFormValues['questionType']) => {
    if (!next) return;
    const nextFormat = FORMATS_OF[next][0];
    form.setFieldsValue({
      medicalFormat: nextFormat,
      options:
        CHOICE.includes(next) || next === 'option_group'
          ? emptyOptions(Math.max(optionCount(nextFormat), optionRule(next, nextFormat).min))
          : [],
      children: isGroup(next)
        ? [
            { stem: '', options: emptyOptions(5) },
            { stem: '', options: emptyOptions(5) },
          ]
        : [],
    });
  };
  /** A new format keeps the options written where they fit its rule (X takes four or more, A1 and A2 five). */
  const chooseFormat = (next: QuestionFormValues['medicalFormat']) => {
    if (!CHOICE.includes(type as never)) return;
    form.setFieldValue('options', fitOptions(form.getFieldValue('options') ?? [], optionRule(type, next)));
  };

  const go = async (to: Step) => {
    if (STEPS.indexOf(to) > at) {
      const { own, nested } = stepFields(step, children.length);
      // one call after the other: a call made while another runs leaves the first one out of date (rc-field-form)
      const ok =
        (await validateOrShow(form, own as never)) &&
        (await validateOrShow(form, nested as never, { recursive: true }));
      if (!ok) return;
    }
    if (to === 'preview') {
      const body = toBody(form.getFieldsValue(true));
      findDuplicates({ stem: body.stem, options: body.options, children: body.children, excludeId: id }).then(
        setDuplicates,
        ignoreShownError,
      );
    }
    setStep(to);
  };

  const save = async () => {
    const all = form.getFieldsValue(true) as QuestionFormValues;
    const body = toBody(all);
    setSaving(true);
    const placeFieldErrors = (fields: { field: string; message: string }[]) => {
      const named = fields.map(({ field, message: text }) => ({
        name: formFieldOf(field, all.questionType),
        errors: [text],
      }));
      form.setFields(named as Parameters<typeof form.setFields>[0]);
      setRefusedDuplicate(named.some((f) => f.name[0] === 'allowDuplicate'));
      setStep(stepOf(named[0].name));
      return true;
    };
    const saved = await (record
      ? questions.update(
          record.id,
          { ...body, changeNote: all.changeNote, version: record.version },
          { placeFieldErrors },
        )
      : questions.create(body, { placeFieldErrors })
    ).then(
      (row: Question) => row,
      () => undefined,
    );
    setSaving(false);
    if (!saved) return;
    message.success(t('resource.saved'));
    finishScreen(frame, `/question/${saved.id}/profile`);
  };

  const shown = (s: Step) => ({ display: step === s ? undefined : 'none' });
  /** A question under review (or retired) is not changed: said before its steps are walked, not only on saving. */
  const locked = record && !EDITABLE.includes(record.status);
  const [minItems, maxItems] = (format && CHILD_COUNT[format]) || [2, 10];
  const preview = values?.questionType ? toBody({ ...form.getFieldsValue(true) }) : undefined;

  return (
    <QuestionMediaProvider questionId={id}>
      <Card data-testid="question-edit">
        {locked && (
          <Alert
            type="warning"
            showIcon
            data-testid="question-locked"
            style={{ marginBottom: 16 }}
            message={t('assess.question.locked', { status: t(`assess.question.status.${record.status}`) })}
          />
        )}
        <Steps
          current={at}
          size="small"
          style={{ marginBottom: 24 }}
          items={STEPS.map((s) => ({ title: t(`assess.question.step.${s}`) }))}
        />
        <Form<QuestionFormValues>
          form={form}
          layout="vertical"
          preserve
          initialValues={{
            questionType: 'single_choice',
            medicalFormat: null,
            options: emptyOptions(4),
            difficulty: 3,
            tags: [],
          }}
          style={{ maxWidth: 860 }}
        >
          <div style={shown('type')}>
            <Form.Item name="questionType" label={t('assess.question.questionType')} rules={[{ required: true }]}>
              <Radio.Group
                // what the required field's aria-required is allowed on (antd passes it on, its types do not list it)
                {...({ role: 'radiogroup' } as object)}
                data-testid="question-type"
                optionType="button"
                onChange={(e) => chooseType(e.target.value)}
                options={QUESTION_TYPES.map((value) => ({ value, label: t(`assess.question.type.${value}`) }))}
              />
            </Form.Item>
            <Form.Item name="medicalFormat" label={t('assess.question.medicalFormat')}>
              <Radio.Group
                data-testid="question-format"
                onChange={(e) => chooseFormat(e.target.value)}
                options={(type ? FORMATS_OF[type] : [null]).map((value) => ({
                  value,
                  label: value ? t(`assess.question.format.${value}`) : t('assess.question.format.none'),
                }))}
              />
            </Form.Item>
            <Form.Item name="categoryId" label={t('assess.question.categoryId')} rules={[{ required: true }]}>
              <TaxonomySelect
                kind="category"
                enabledOnly
                testId="question-category"
                labels={record ? { [record.categoryId]: record.categoryName ?? '' } : {}}
              />
            </Form.Item>
          </div>

          <div style={shown('stem')}>
            <Form.Item
              name="stem"
              label={t(group ? `assess.question.stem.${type}` : 'assess.question.stem')}
              rules={[{ required: true, whitespace: true }]}
              extra={type === 'fill_blank' ? t('assess.question.blankHint', { blank: BLANK }) : undefined}
            >
              <Input.TextArea data-testid="question-stem" rows={4} maxLength={10_000} showCount />
            </Form.Item>
            <Form.Item name="stemMediaFileIds" label={t('assess.question.stemMedia')}>
              <MediaField testId="question-stem-media" />
            </Form.Item>
            {type === 'fill_blank' && (
              <Button
                size="small"
                data-testid="insert-blank"
                onClick={() => form.setFieldValue('stem', `${stem ?? ''}${BLANK}`)}
              >
                {t('assess.question.insertBlank')}
              </Button>
            )}
            {group && (
              <Form.List
                name="children"
                rules={[
                  {
                    validator: async (_rule, items?: unknown[]) => {
                      const n = items?.length ?? 0;
                      if (n < minItems || n > maxItems)
                        throw new Error(t('assess.question.itemCount', { min: minItems, max: maxItems }));
                    },
                  },
                ]}
              >
                {(fields, { add, remove, move }, { errors }) => (
                  <div data-testid="question-children">
                    <Typography.Title level={5}>{t('assess.question.children')}</Typography.Title>
                    {fields.map((field, i) => (
                      <Space key={field.key} align="start" style={{ display: 'flex' }}>
                        <strong>{i + 1}.</strong>
                        <div style={{ width: 640 }}>
                          <Form.Item
                            name={[field.name, 'stem']}
                            rules={[
                              {
                                required: true,
                                whitespace: true,
                                message: t('assess.question.childStemRequired', { n: i + 1 }),
                              },
                            ]}
                            style={{ marginBottom: 4 }}
                          >
                            <Input.TextArea data-testid="child-stem" rows={2} maxLength={10_000} />
                          </Form.Item>
                          <Form.Item name={[field.name, 'stemMediaFileIds']} style={{ marginBottom: 8 }}>
                            <MediaField compact testId="child-stem-media" />
                          </Form.Item>
                        </div>
                        <ItemMoves index={i} count={fields.length} move={move} remove={() => remove(field.name)} />
                      </Space>
                    ))}
                    <Button
                      type="dashed"
                      icon={<PlusOutlined />}
                      data-testid="add-child"
                      disabled={fields.length >= maxItems}
                      onClick={() => add({ stem: '', options: emptyOptions(5) })}
                    >
                      {t('assess.question.addChild')}
                    </Button>
                    <Form.ErrorList errors={errors} />
                  </div>
                )}
              </Form.List>
            )}
          </div>

          <div style={shown('answer')}>
            {type && CHOICE.includes(type) && (
              <Form.Item label={t('assess.question.options')} required>
                <OptionsEditor
                  name={['options']}
                  single={type === 'single_choice'}
                  rule={optionRule(type, format)}
                  testId="question-options"
                />
              </Form.Item>
            )}
            {type === 'true_false' && (
              <Form.Item name="judgement" label={t('assess.question.answer')} rules={[{ required: true }]}>
                <Radio.Group
                  data-testid="question-judgement"
                  options={[
                    { value: true, label: t('assess.question.true') },
                    { value: false, label: t('assess.question.false') },
                  ]}
                />
              </Form.Item>
            )}
            {type === 'fill_blank' &&
              Array.from({ length: blanksIn(stem) }, (_, i) => (
                <Form.Item
                  // biome-ignore lint/suspicious/noArrayIndexKey: a blank is its place in the stem
                  key={i}
                  name={['blanks', i]}
                  label={t('assess.question.blank', { n: i + 1 })}
                  rules={[{ required: true }]}
                >
                  <Select mode="tags" data-testid="question-blank" open={false} />
                </Form.Item>
              ))}
            {(type === 'short_answer' || type === 'essay') && (
              <>
                <Form.Item
                  name="reference"
                  label={t('assess.question.reference')}
                  rules={[{ required: true, whitespace: true }]}
                >
                  <Input.TextArea data-testid="question-reference" rows={5} />
                </Form.Item>
                <Form.List name="points">
                  {(fields, { add, remove }) => (
                    <Form.Item label={t('assess.question.points')}>
                      {fields.map((field, i) => (
                        <Space key={field.key} align="baseline">
                          <Form.Item
                            name={[field.name, 'text']}
                            rules={[
                              {
                                required: true,
                                whitespace: true,
                                message: t('assess.question.pointRequired', { n: i + 1 }),
                              },
                            ]}
                            style={{ width: 480 }}
                          >
                            <Input data-testid="question-point-text" />
                          </Form.Item>
                          <Form.Item
                            name={[field.name, 'score']}
                            rules={[{ required: true, message: t('assess.question.pointScoreRequired', { n: i + 1 }) }]}
                          >
                            <InputNumber data-testid="question-point-score" min={0} max={1000} />
                          </Form.Item>
                          <Button type="text" icon={<DeleteOutlined />} onClick={() => remove(field.name)} />
                        </Space>
                      ))}
                      <Button
                        type="dashed"
                        size="small"
                        icon={<PlusOutlined />}
                        data-testid="add-point"
                        onClick={() => add({ text: '', score: 1 })}
                      >
                        {t('assess.question.addPoint')}
                      </Button>
                    </Form.Item>
                  )}
                </Form.List>
              </>
            )}
            {type === 'option_group' && (
              <>
                <Form.Item label={t('assess.question.sharedOptions')} required>
                  <OptionsEditor
                    name={['options']}
                    marks={false}
                    rule={optionRule(type, format)}
                    testId="question-options"
                  />
                </Form.Item>
                {children.map((child, i) => (
                  <Form.Item
                    // biome-ignore lint/suspicious/noArrayIndexKey: an item is its place in the group
                    key={i}
                    name={['children', i, 'answerKey']}
                    label={`${i + 1}. ${child?.stem ?? ''}`}
                    rules={[{ required: true }]}
                  >
                    <Radio.Group data-testid="child-answer-key" options={['A', 'B', 'C', 'D', 'E']} />
                  </Form.Item>
                ))}
              </>
            )}
            {type === 'case_analysis' && (
              <Alert type="info" showIcon message={t('assess.question.weightHint')} style={{ marginBottom: 16 }} />
            )}
            {(type === 'case_group' || type === 'case_analysis') &&
              children.map((child, i) => (
                <Form.Item
                  // biome-ignore lint/suspicious/noArrayIndexKey: an item is its place in the group
                  key={i}
                  label={`${i + 1}. ${child?.stem ?? ''}`}
                  required
                >
                  <OptionsEditor
                    name={['children', i, 'options']}
                    single={type === 'case_group'}
                    weights={type === 'case_analysis'}
                    rule={optionRule(type, format)}
                    testId="child-options"
                  />
                </Form.Item>
              ))}
          </div>

          <div style={shown('details')}>
            <Form.Item name="analysis" label={t('assess.question.analysis')}>
              <Input.TextArea data-testid="question-analysis" rows={3} maxLength={10_000} />
            </Form.Item>
            {group &&
              children.map((child, i) => (
                <Form.Item
                  // biome-ignore lint/suspicious/noArrayIndexKey: an item is its place in the group
                  key={i}
                  name={['children', i, 'analysis']}
                  label={t('assess.question.childAnalysis', { n: i + 1, stem: child?.stem ?? '' })}
                >
                  <Input.TextArea data-testid="child-analysis" rows={2} maxLength={10_000} />
                </Form.Item>
              ))}
            <Form.Item name="difficulty" label={t('assess.question.difficulty')}>
              <Radio.Group
                optionType="button"
                options={[1, 2, 3, 4, 5].map((value) => ({ value, label: t(`assess.question.difficulty.${value}`) }))}
              />
            </Form.Item>
            <Form.Item name="knowledgePointIds" label={t('assess.question.knowledgePointIds')}>
              <TaxonomySelect
                kind="knowledge"
                enabledOnly
                multiple
                testId="question-knowledge"
                labels={Object.fromEntries(
                  (record?.knowledgePointIds ?? []).map((kp, i) => [kp, record?.knowledgePointNames[i] ?? kp]),
                )}
              />
            </Form.Item>
            <Form.Item name="tags" label={t('assess.question.tags')}>
              <QuestionTagSelect multiple testId="question-tags" />
            </Form.Item>
            <Space>
              <Form.Item name="suggestedScore" label={t('assess.question.suggestedScore')}>
                <InputNumber min={0} max={999} step={0.5} />
              </Form.Item>
              <Form.Item name="source" label={t('assess.question.source')}>
                <Input maxLength={100} />
              </Form.Item>
              <Form.Item name="sourceYear" label={t('assess.question.sourceYear')}>
                <InputNumber
                  data-testid="question-source-year"
                  min={1950}
                  max={new Date().getFullYear()}
                  precision={0}
                />
              </Form.Item>
            </Space>
            <Space wrap>
              <Form.Item name="specialtyCode" label={t('assess.question.specialtyCode')}>
                <Select
                  data-testid="question-specialty"
                  allowClear
                  showSearch
                  optionFilterProp="label"
                  style={{ width: 200 }}
                  options={[...dictEnum(SPECIALTY)].map(([value, entry]) => ({ value, label: entry.text }))}
                />
              </Form.Item>
              <Form.Item name="syllabusRef" label={t('assess.question.syllabusRef')}>
                <Input data-testid="question-syllabus" maxLength={100} style={{ width: 280 }} />
              </Form.Item>
              <Form.Item name="estimatedSeconds" label={t('assess.question.estimatedSeconds')}>
                <InputNumber data-testid="question-seconds" min={1} max={36_000} precision={0} />
              </Form.Item>
            </Space>
            {record && (
              <Form.Item
                name="changeNote"
                label={t('assess.question.changeNote')}
                extra={
                  record.status === 'ready' || record.status === 'hidden' ? t('assess.question.newVersion') : undefined
                }
              >
                <Input maxLength={200} />
              </Form.Item>
            )}
          </div>

          {step === 'preview' && preview && (
            <div data-testid="question-step-preview">
              <QuestionPreview question={preview} answerSwitch />
              {duplicates.length > 0 && (
                <Alert
                  type="warning"
                  showIcon
                  data-testid="question-duplicates"
                  message={t('assess.question.duplicates')}
                  description={
                    <List
                      size="small"
                      dataSource={duplicates}
                      renderItem={(d) => (
                        <List.Item>
                          {/* the router makes the address (the app's is a hash); a new tab keeps this form as it is */}
                          <Link to={`/question/${d.id}/profile`} target="_blank" rel="noreferrer">
                            {d.code}
                          </Link>{' '}
                          {d.exact ? t('assess.question.duplicate.exact') : `${Math.round(d.similarity * 100)}%`} ·{' '}
                          {d.stem.slice(0, 60)}
                        </List.Item>
                      )}
                    />
                  }
                  style={{ marginBottom: 16 }}
                />
              )}
              <Form.Item
                name="allowDuplicate"
                valuePropName="checked"
                hidden={!refusedDuplicate && !duplicates.some((d) => d.exact)}
              >
                <Checkbox data-testid="allow-duplicate">{t('assess.question.allowDuplicate')}</Checkbox>
              </Form.Item>
            </div>
          )}
        </Form>
        <Space style={{ marginTop: 16 }}>
          {at > 0 && (
            <Button data-testid="step-back" onClick={() => go(STEPS[at - 1])}>
              {t('assess.question.step.back')}
            </Button>
          )}
          {step !== 'preview' ? (
            <Button type="primary" data-testid="step-next" onClick={() => go(STEPS[at + 1])}>
              {t('assess.question.step.next')}
            </Button>
          ) : (
            <Button type="primary" data-testid="question-save" loading={saving} disabled={locked} onClick={save}>
              {t('assess.question.save')}
            </Button>
          )}
        </Space>
      </Card>
    </QuestionMediaProvider>
  );
}
