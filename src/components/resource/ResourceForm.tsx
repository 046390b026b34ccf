import { BetaSchemaForm, type ProFormColumnsType, type ProFormInstance } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { type ButtonProps, type FormItemProps, Modal } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useUnsavedGuard } from '@/hooks/useUnsavedGuard';
import { useFieldLimits } from '@/services/limits';
import type { ResourceService } from '@/services/resource';
import { fieldErrorsOn } from '@/utils/formErrors';
import message from '@/utils/message';
import { statusOf } from '@/utils/request';
import { type FormMode, toBody } from './params';
import type { RowDescriptor } from './types';
import { useResourceColumns } from './useResourceColumns';
import { useResourceService } from './useResourceControls';

/** How a form title names a record: the descriptor's choice, else the first of its usual naming fields. */
export function recordName<Row extends { id: string; version: number }>(
  descriptor: RowDescriptor<Row>,
  row: Row,
): string | undefined {
  if (descriptor.recordName) return descriptor.recordName(row);
  const fields: Record<string, unknown> = row;
  const name = ['name', 'displayName', 'label', 'title', 'userName', 'code'].map((f) => fields[f]).find((v) => v);
  return name === undefined ? undefined : String(name);
}

/** A value as the user typed it, for the note beside a field that changed meanwhile. */
const shown = (value: unknown) => {
  if (Array.isArray(value)) return value.join(', ');
  return value === undefined || value === null || value === '' ? '-' : String(value);
};

/** The kinds of field a user picks a value in rather than types one. */
const PICKED = new Set([
  'select',
  'treeSelect',
  'cascader',
  'radio',
  'radioButton',
  'checkbox',
  'switch',
  'date',
  'dateTime',
  'dateRange',
  'dateTimeRange',
  'time',
  'timeRange',
]);

/** A required field's message says what to do with it: pick (请选择) a value in a select or a date, type one elsewhere. */
function requiredByKind(
  props: unknown,
  valueType: unknown,
  label: string,
  intl: ReturnType<typeof useIntl>,
): FormItemProps | undefined {
  const given = props as FormItemProps | undefined;
  if (!given?.rules || typeof valueType !== 'string' || !PICKED.has(valueType)) return given;
  const message = intl.formatMessage({ id: 'resource.form.requiredChoice' }, { label });
  return {
    ...given,
    rules: given.rules.map((rule) =>
      typeof rule === 'object' && rule.required && !rule.message ? { ...rule, message } : rule,
    ),
  };
}

interface Props<Row extends { id: string; version: number }> {
  descriptor: RowDescriptor<Row>;
  /** Its bodies are the form's values: typed by the descriptor, not here. Defaults to the resource's HTTP contract. */
  service?: ResourceService<Row, never, never>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The row being edited; none: create. */
  record?: Row;
  /** Initial values of a new record (e.g. the parent it is created under). */
  defaults?: Record<string, unknown>;
  onSaved: (row: Row) => void;
}

/** Kinds of field typed as text, which take the server's maximum length. */
const TYPED = new Set(['text', 'textarea', 'password']);

/** One form for create and edit, built from the descriptor's columns. A failed save keeps it open. */
export default function ResourceForm<Row extends { id: string; version: number }>({
  descriptor,
  service: given,
  open,
  onOpenChange,
  record,
  defaults,
  onSaved,
}: Props<Row>) {
  const intl = useIntl();
  const service = useResourceService(descriptor, given);
  const formRef = useRef<ProFormInstance<Record<string, unknown>>>();
  const guard = useUnsavedGuard(
    open,
    () => formRef.current,
    () => onOpenChange(false),
  );
  // after a 409 the form edits the record as it now is, so the next save carries its version
  const [reloaded, setReloaded] = useState<Row>();
  const current = reloaded?.id === record?.id ? (reloaded ?? record) : record;
  const mode: FormMode = record ? 'update' : 'create';
  const layout = descriptor.formLayout ?? 'ModalForm';
  const fields = descriptor.form[mode] as string[];
  const columns = useResourceColumns(descriptor.columns);
  // a text field stops at the length the server takes (a longer one would only be refused on save)
  const limits = useFieldLimits(descriptor.resource);
  const formColumns = useMemo(
    () =>
      fields.flatMap((field) => {
        const column = columns.find((c) => c.dataIndex === field && !(c as { hideInForm?: boolean }).hideInForm);
        if (!column) return [];
        const {
          render: _render,
          hideInTable: _t,
          hideInSearch: _s,
          hideInForm: _f,
          hideInDescriptions: _d,
          sorter: _o,
          formDisabled,
          ...rest
        } = column;
        const valueType = rest.valueType ?? (rest.valueEnum ? 'select' : 'text');
        const max = TYPED.has(valueType as string) ? limits?.[field] : undefined;
        return [
          {
            ...rest,
            formItemProps: requiredByKind(rest.formItemProps, valueType, String(rest.title), intl),
            valueType,
            fieldProps: {
              ...(max ? { maxLength: max, showCount: valueType === 'textarea' } : {}),
              ...(rest.fieldProps ?? {}),
              ...(formDisabled?.(record) ? { disabled: true } : {}),
              'data-testid': `form-${field}`,
            },
          } as ProFormColumnsType<Record<string, unknown>>,
        ];
      }),
    [columns, fields, record, limits],
  );

  const entity = intl.formatMessage({ id: descriptor.titleId });
  const name = record && recordName(descriptor, record);
  const title = !record
    ? intl.formatMessage({ id: 'resource.form.createTitle' }, { entity })
    : name
      ? intl.formatMessage({ id: 'resource.form.editTitleOf' }, { entity, name })
      : intl.formatMessage({ id: 'resource.form.editTitle' }, { entity });

  /** The record as it now is in the form, with what the user typed beside each field that differs. */
  const reload = async (typed: Record<string, unknown>) => {
    const latest = await service.get(record!.id).catch(() => undefined);
    if (!latest) return;
    setReloaded(latest);
    formRef.current?.setFields(
      fields.map((field) => {
        const now = (latest as Record<string, unknown>)[field];
        const differs = JSON.stringify(typed[field] ?? null) !== JSON.stringify(now ?? null);
        return {
          name: field,
          value: now,
          errors: [],
          warnings: differs
            ? [intl.formatMessage({ id: 'resource.conflict.yours' }, { value: shown(typed[field]) })]
            : [],
        };
      }),
    );
  };

  const offerReload = (typed: Record<string, unknown>) =>
    Modal.confirm({
      title: intl.formatMessage({ id: 'resource.conflict.title' }),
      content: intl.formatMessage({ id: 'resource.conflict.content' }),
      okText: intl.formatMessage({ id: 'resource.conflict.reload' }),
      okButtonProps: { 'data-testid': 'conflict-reload' } as ButtonProps,
      onOk: () => reload(typed),
    });

  const save = async (values: Record<string, unknown>) => {
    const body = toBody(values, fields, mode, current?.version);
    const options = fieldErrorsOn(formRef.current);
    try {
      const saved = current
        ? await service.update(current.id, body as never, options)
        : await service.create(body as never, options);
      message.success(intl.formatMessage({ id: 'resource.saved' }));
      guard.saved();
      onSaved(saved);
      return true;
    } catch (error) {
      // the request layer has shown why (or the form, on its fields); a stale edit can be replayed on the new values
      const code = (error as { data?: { code?: string } }).data?.code;
      if (current && statusOf(error) === 409 && code === 'common.versionConflict') offerReload(values);
      return false;
    }
  };

  return (
    <BetaSchemaForm<Record<string, unknown>>
      layoutType={layout}
      key={record ? `${record.id}@${record.version}` : 'new'}
      title={title}
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : guard.onOpenChange(false))}
      columns={formColumns}
      initialValues={(current as Record<string, unknown> | undefined) ?? defaults}
      formRef={formRef}
      onFinish={save}
      {...({
        [layout === 'DrawerForm' ? 'drawerProps' : 'modalProps']: {
          destroyOnHidden: true,
          rootClassName: 'resource-form',
        },
        submitter: { submitButtonProps: { 'data-testid': 'resource-form-submit' } },
      } as object)}
    />
  );
}
