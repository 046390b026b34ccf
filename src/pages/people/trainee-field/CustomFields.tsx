import {
  ProFormCheckbox,
  ProFormDatePicker,
  ProFormDateRangePicker,
  ProFormDateTimePicker,
  ProFormDigit,
  ProFormRadio,
  ProFormSelect,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
  ProFormUploadButton,
} from '@ant-design/pro-components';
import type { FieldType } from '@server/modules/people/trainee-field/custom-field';
import type { TraineeField } from '@server/modules/people/trainee-field/trainee-field.resource';
import { getLocale } from '@umijs/max';
import { Divider } from 'antd';
import type { Rule } from 'antd/es/form';
import { Fragment, type ReactNode } from 'react';
import { dictEnum } from '@/components/resource/dict';

/** What a value of a kind must look like, where a pattern says it (the server's value rule says the rest). */
const PATTERNS: Partial<Record<FieldType, RegExp>> = {
  mobile: /^1[3-9]\d{9}$/,
  id_card: /^\d{17}[\dXx]$/,
  district: /^(\d{6}|\d{9})$/,
};

function fieldOf(field: TraineeField, readonly: boolean, prefix: string[]): ReactNode {
  const label = (getLocale() === 'en-US' && field.labelEn) || field.label;
  const v = field.validation ?? {};
  const rules: Rule[] = [
    ...(field.required ? [{ required: true }] : []),
    ...(PATTERNS[field.fieldType] ? [{ pattern: PATTERNS[field.fieldType] }] : []),
    ...(field.fieldType === 'email' ? [{ type: 'email' as const }] : []),
    ...(field.fieldType === 'url' ? [{ type: 'url' as const }] : []),
    ...(v.pattern ? [{ pattern: new RegExp(v.pattern), message: v.patternMessage }] : []),
    ...(v.maxLength ? [{ max: v.maxLength }] : []),
    ...(v.minLength ? [{ min: v.minLength }] : []),
  ];
  const common = {
    name: [...prefix, field.key],
    label,
    rules,
    tooltip: field.helpText ?? undefined,
    initialValue: field.defaultValue ?? undefined,
    readonly,
    fieldProps: { 'data-testid': `custom-${field.key}` } as object,
    placeholder: field.placeholder ?? undefined,
  };
  const options = (field.options ?? []).map((o) => ({ value: o.value, label: o.label }));
  switch (field.fieldType) {
    case 'textarea':
    case 'rich_text':
      return <ProFormTextArea {...common} />;
    case 'number':
    case 'integer':
      return (
        <ProFormDigit
          {...common}
          min={v.min}
          max={v.max}
          fieldProps={{ ...common.fieldProps, precision: field.fieldType === 'integer' ? 0 : v.precision }}
        />
      );
    case 'date':
      return <ProFormDatePicker {...common} />;
    case 'datetime':
      return <ProFormDateTimePicker {...common} />;
    case 'date_range':
      return <ProFormDateRangePicker {...common} />;
    case 'select':
    case 'multi_select':
      return (
        <ProFormSelect
          {...common}
          options={options}
          mode={field.fieldType === 'multi_select' ? 'multiple' : undefined}
        />
      );
    case 'radio':
      return <ProFormRadio.Group {...common} options={options} />;
    case 'checkbox':
      return <ProFormCheckbox.Group {...common} options={options} />;
    case 'switch':
      return <ProFormSwitch {...common} />;
    case 'dict':
    case 'dict_multi':
      return (
        <ProFormSelect
          {...common}
          options={[...dictEnum(field.dictTypeCode ?? '')].map(([value, entry]) => ({ value, label: entry.text }))}
          mode={field.fieldType === 'dict_multi' ? 'multiple' : undefined}
        />
      );
    case 'file':
    case 'image':
      return <ProFormUploadButton {...common} max={v.maxCount} disabled={readonly} />;
    default:
      return <ProFormText {...common} />;
  }
}

/**
 * A trainee type's custom fields as form items, in their order and grouped into their sections: what the trainee form
 * renders (its values under `namePrefix`, the trainee's `customFields`), and the type's preview. Archived fields are
 * left out.
 */
export default function CustomFields({
  fields,
  readonly = false,
  namePrefix = [],
}: {
  fields: TraineeField[];
  readonly?: boolean;
  namePrefix?: string[];
}) {
  const active = fields.filter((f) => f.status === 'active' && f.visibility !== 'hidden');
  const sections: [string | null, TraineeField[]][] = [];
  for (const field of active) {
    const last = sections[sections.length - 1];
    if (last && last[0] === field.groupName) last[1].push(field);
    else sections.push([field.groupName, [field]]);
  }
  return (
    <>
      {sections.map(([group, list], i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: sections are runs of the ordered fields; a name may recur
        <Fragment key={i}>
          {group && <Divider orientation="left">{group}</Divider>}
          {list.map((field) => (
            <Fragment key={field.id}>{fieldOf(field, readonly, namePrefix)}</Fragment>
          ))}
        </Fragment>
      ))}
    </>
  );
}
