import { DeleteOutlined, PictureOutlined, PlusOutlined } from '@ant-design/icons';
import { useIntl } from '@umijs/max';
import { Button, Checkbox, Form, Input, InputNumber, Space } from 'antd';
import type { NamePath } from 'antd/es/form/interface';
import { useState } from 'react';
import { MediaField } from '../QuestionMedia';
import { KEYS, type OptionRule, type OptionValue } from '../questionForm';

/**
 * The options of an item, keyed A, B, C… by their place, each with its text and (`marks`) whether it is correct, or
 * (`weights`, a case analysis stage) its weight: what a pick adds, or deducts when negative, the options that add
 * being the answer; `single`: marking one unmarks the others. `rule`: how many the type and format take (`optionRule`: five exactly for
 * A1–A4 and B1, four or more for X…): options are added up to its most and removed down to its least; and how many
 * are marked correct, checked on this step as the server checks it on saving.
 */
export default function OptionsEditor({
  name,
  marks = true,
  weights,
  single,
  rule,
  testId,
}: {
  name: (string | number)[];
  marks?: boolean;
  weights?: boolean;
  single?: boolean;
  rule: OptionRule;
  testId: string;
}) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, number>) => intl.formatMessage({ id }, values);
  const { min, max, correct } = rule;
  const form = Form.useFormInstance();
  // the options' images are a field of each option once asked for (or once one has an image): most options have none
  const [withImages, setWithImages] = useState(false);
  const imaged =
    withImages ||
    ((form.getFieldValue(name as NamePath) as OptionValue[] | undefined) ?? []).some((o) => o?.mediaIds?.length);
  const mark = (index: number, checked: boolean) => {
    if (!single || !checked) return;
    const options: OptionValue[] = form.getFieldValue(name as NamePath) ?? [];
    form.setFieldValue(
      name as NamePath,
      options.map((option, i) => ({ ...option, correct: i === index })),
    );
  };
  return (
    <Form.List
      name={name}
      rules={[
        {
          validator: async (_rule, items?: unknown[]) => {
            const n = items?.length ?? 0;
            if (n < min || n > max) throw new Error(t('assess.question.optionCount', { min, max }));
            if (weights && !(items as OptionValue[]).some((o) => Number(o?.weight ?? 0) > 0))
              throw new Error(t('assess.question.weightNone'));
            const marked = (items as OptionValue[]).filter((o) => o?.correct).length;
            if (marks && !weights && correct && (marked < correct.min || marked > correct.max))
              throw new Error(
                t(correct.max === 1 ? 'assess.question.answer.single' : 'assess.question.answer.multiple', correct),
              );
          },
        },
      ]}
    >
      {(fields, { add, remove }, { errors }) => (
        <div data-testid={testId}>
          {fields.map((field, i) => (
            <Space key={field.key} align="baseline" style={{ display: 'flex' }}>
              <strong style={{ width: 16, display: 'inline-block' }}>{KEYS[i]}</strong>
              <Form.Item
                name={[field.name, 'text']}
                rules={[{ required: true, whitespace: true, message: t('assess.question.optionRequired') }]}
                style={{ width: 480, marginBottom: 8 }}
              >
                <Input data-testid={`${testId}-text`} maxLength={2000} />
              </Form.Item>
              {weights && (
                <Form.Item
                  name={[field.name, 'weight']}
                  style={{ marginBottom: 8 }}
                  rules={[{ type: 'number', min: -100, max: 100 }]}
                >
                  <InputNumber
                    data-testid={`${testId}-weight`}
                    aria-label={t('assess.question.weight')}
                    placeholder={t('assess.question.weight')}
                    step={0.5}
                    min={-100}
                    max={100}
                    style={{ width: 96 }}
                  />
                </Form.Item>
              )}
              {marks && !weights && (
                <Form.Item name={[field.name, 'correct']} valuePropName="checked" style={{ marginBottom: 8 }}>
                  <Checkbox data-testid={`${testId}-correct`} onChange={(e) => mark(i, e.target.checked)}>
                    {t('assess.question.correct')}
                  </Checkbox>
                </Form.Item>
              )}
              {imaged && (
                <Form.Item name={[field.name, 'mediaIds']} style={{ marginBottom: 8 }}>
                  <MediaField compact max={4} testId={`${testId}-media`} />
                </Form.Item>
              )}
              {fields.length > min && (
                <Button
                  type="text"
                  icon={<DeleteOutlined />}
                  aria-label={t('resource.delete')}
                  onClick={() => remove(field.name)}
                />
              )}
            </Space>
          ))}
          {fields.length < Math.min(max, KEYS.length) && (
            <Button
              type="dashed"
              size="small"
              data-testid={`${testId}-add`}
              icon={<PlusOutlined />}
              onClick={() => add({ text: '', correct: false, ...(weights && { weight: 0 }) })}
            >
              {t('assess.question.addOption')}
            </Button>
          )}
          {!imaged && (
            <Button
              type="link"
              size="small"
              icon={<PictureOutlined />}
              data-testid={`${testId}-images`}
              onClick={() => setWithImages(true)}
            >
              {t('assess.question.media.options')}
            </Button>
          )}
          <Form.ErrorList errors={errors} />
        </div>
      )}
    </Form.List>
  );
}
