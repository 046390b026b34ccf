import { BetaSchemaForm, type ProFormColumnsType } from '@ant-design/pro-components';
import { useIntl } from '@umijs/max';
import { message } from 'antd';
import { useMemo } from 'react';
import type { ResourceService } from '@/services/resource';
import type { AnyDescriptor } from './types';
import { useResourceColumns } from './useResourceColumns';

export type FormMode = 'create' | 'update';

/**
 * The body a form sends: exactly the mode's fields. Empty inputs are left out on create and cleared
 * (`null`) on update; an update carries the `version` it read.
 */
export function toBody(values: Record<string, unknown>, fields: string[], mode: FormMode, version?: number) {
  const body: Record<string, unknown> = {};
  for (const field of fields) {
    const value = values[field];
    if (value === undefined) continue;
    if (value === '' || value === null) {
      if (mode === 'update') body[field] = null;
      continue;
    }
    body[field] = typeof value === 'string' ? value.trim() : value;
  }
  if (mode === 'update') body.version = version;
  return body;
}

interface Props<Row extends { id: string; version: number }> {
  descriptor: AnyDescriptor;
  service: ResourceService<Row, any, any>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The row being edited; none: create. */
  record?: Row;
  /** Initial values of a new record (e.g. the parent it is created under). */
  defaults?: Record<string, unknown>;
  onSaved: (row: Row) => void;
}

/** One form for create and edit, built from the descriptor's columns. A failed save keeps it open. */
export default function ResourceForm<Row extends { id: string; version: number }>({
  descriptor,
  service,
  open,
  onOpenChange,
  record,
  defaults,
  onSaved,
}: Props<Row>) {
  const intl = useIntl();
  const mode: FormMode = record ? 'update' : 'create';
  const layout = descriptor.formLayout ?? 'ModalForm';
  const fields = descriptor.form[mode] as string[];
  const columns = useResourceColumns(descriptor.columns);
  const formColumns = useMemo(
    () =>
      fields.flatMap((field) => {
        const column = columns.find((c) => c.dataIndex === field && !(c as { hideInForm?: boolean }).hideInForm);
        if (!column) return [];
        const { render: _render, hideInTable: _t, hideInSearch: _s, hideInForm: _f, hideInDescriptions: _d, sorter: _o, formDisabled, ...rest } =
          column as Record<string, any>;
        const valueType = rest.valueType ?? (rest.valueEnum ? 'select' : 'text');
        return [
          {
            ...rest,
            valueType,
            fieldProps: {
              ...(rest.fieldProps ?? {}),
              ...(formDisabled?.(record) ? { disabled: true } : {}),
              'data-testid': `form-${field}`,
            },
          } as ProFormColumnsType<Record<string, unknown>>,
        ];
      }),
    [columns, fields, record],
  );

  const entity = intl.formatMessage({ id: descriptor.titleId });
  const title = intl.formatMessage({ id: mode === 'create' ? 'resource.form.createTitle' : 'resource.form.editTitle' }, { entity });

  const save = async (values: Record<string, unknown>) => {
    const body = toBody(values, fields, mode, record?.version);
    try {
      const saved = record ? await service.update(record.id, body as never) : await service.create(body as never);
      message.success(intl.formatMessage({ id: 'resource.saved' }));
      onSaved(saved);
      return true;
    } catch {
      // the request layer has shown why (a 409 says the record changed meanwhile); the form stays open
      return false;
    }
  };

  return (
    <BetaSchemaForm<Record<string, unknown>>
      layoutType={layout}
      key={record ? `${record.id}@${record.version}` : 'new'}
      title={title}
      open={open}
      onOpenChange={onOpenChange}
      columns={formColumns}
      initialValues={(record as Record<string, unknown> | undefined) ?? defaults}
      onFinish={save}
      {...({
        [layout === 'DrawerForm' ? 'drawerProps' : 'modalProps']: { destroyOnHidden: true, rootClassName: 'resource-form' },
        submitter: { submitButtonProps: { 'data-testid': 'resource-form-submit' } },
      } as object)}
    />
  );
}
