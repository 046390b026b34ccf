import { getIntl, useIntl } from '@umijs/max';
import { Button, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import type { Rule } from 'antd/es/form';
import { useState } from 'react';
import { validateMessages } from '@/utils/i18n';
import type { Setting } from './service';

const MASK = '******';

/** The form value of a setting: JSON as text, a secret empty until changed. */
export function toFormValue(setting: Setting): unknown {
  if (setting.valueType === 'json') return JSON.stringify(setting.value ?? null, null, 2);
  if (setting.valueType === 'secret') return undefined;
  return setting.value;
}

/** The value a form value saves as. */
export function fromFormValue(setting: Setting, value: unknown): unknown {
  if (setting.valueType === 'json') return JSON.parse(String(value));
  return value;
}

/** The form's generic "required" message, its label filled in. */
const required = (label: string): Rule => ({
  required: true,
  message: validateMessages(getIntl().locale).required.replace('${label}', label),
});

/** Validation per type (the generic messages, as every form's). */
export function rulesOf(setting: Setting, label: string): Rule[] {
  switch (setting.valueType) {
    case 'number':
      return [required(label), { type: 'number', min: setting.min ?? undefined, max: setting.max ?? undefined }];
    case 'enum':
      return [required(label)];
    case 'json':
      return [
        required(label),
        {
          validator: async (_rule, text?: string) => {
            try {
              if (text) JSON.parse(text);
            } catch {
              throw new Error(getIntl().formatMessage({ id: 'system.settings.invalidJson' }, { label }));
            }
          },
        },
      ];
    case 'secret':
      return [{ max: 500 }];
    case 'boolean':
      return [];
    default:
      return [{ max: 2000 }];
  }
}

interface Props {
  /** The Form.Item's id: its label names the control (WCAG 1.3.1, 4.1.2). */
  id?: string;
  setting: Setting;
  value?: unknown;
  onChange?: (value: unknown) => void;
  disabled?: boolean;
}

/** The input of one setting by its type; a secret shows its mask until "change" is chosen. */
export default function SettingInput({ id, setting, value, onChange, disabled }: Props) {
  const intl = useIntl();
  const [changing, setChanging] = useState(false);
  const testid = `setting-input-${setting.key}`;
  switch (setting.valueType) {
    case 'number':
      return (
        <InputNumber
          id={id}
          value={value as number}
          onChange={(v) => onChange?.(v)}
          min={setting.min ?? undefined}
          max={setting.max ?? undefined}
          disabled={disabled}
          style={{ width: 200 }}
          data-testid={testid}
        />
      );
    case 'boolean':
      return (
        <Switch
          id={id}
          checked={Boolean(value)}
          onChange={(v) => onChange?.(v)}
          disabled={disabled}
          data-testid={testid}
        />
      );
    case 'enum':
      return (
        <Select
          id={id}
          value={value as string}
          onChange={(v) => onChange?.(v)}
          disabled={disabled}
          style={{ width: 240 }}
          options={(setting.options ?? []).map((o) => ({
            value: o.value,
            label: intl.locale === 'en-US' && o.labelEn ? o.labelEn : o.label,
          }))}
          data-testid={testid}
        />
      );
    case 'json':
      return (
        <Input.TextArea
          id={id}
          value={value as string}
          onChange={(e) => onChange?.(e.target.value)}
          disabled={disabled}
          autoSize={{ minRows: 2, maxRows: 10 }}
          style={{ fontFamily: 'monospace' }}
          data-testid={testid}
        />
      );
    case 'secret':
      return changing ? (
        <Space.Compact>
          <Input.Password
            id={id}
            value={value as string}
            onChange={(e) => onChange?.(e.target.value)}
            autoComplete="new-password"
            style={{ width: 280 }}
            data-testid={testid}
          />
          <Button
            onClick={() => {
              setChanging(false);
              onChange?.(undefined);
            }}
          >
            {intl.formatMessage({ id: 'resource.cancel' })}
          </Button>
        </Space.Compact>
      ) : (
        <Space>
          <Typography.Text type="secondary" data-testid={`setting-mask-${setting.key}`}>
            {setting.value === MASK ? MASK : intl.formatMessage({ id: 'system.settings.secret.unset' })}
          </Typography.Text>
          {!disabled && (
            <Button size="small" onClick={() => setChanging(true)} data-testid={`setting-change-${setting.key}`}>
              {intl.formatMessage({ id: 'system.settings.secret.change' })}
            </Button>
          )}
        </Space>
      );
    default:
      return (
        <Input
          id={id}
          value={value as string}
          onChange={(e) => onChange?.(e.target.value)}
          disabled={disabled}
          style={{ width: 360 }}
          data-testid={testid}
        />
      );
  }
}
