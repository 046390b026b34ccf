import type { CreateTenant, Tenant, UpdateTenant } from '@server/modules/system/tenant/tenant.schema';
import { getIntl } from '@umijs/max';
import { Tag } from 'antd';
import dayjs from 'dayjs';
import PasswordStrengthInput from '@/components/password/LazyPasswordStrengthInput';
import { describeResource } from '@/components/resource/types';
import { formatDate } from '@/utils/dates';
import { packageOptions } from './service';

export type { CreateTenant, Tenant, UpdateTenant };

/** A date picked in the form → the end of that day as an ISO date-time (the tenant may sign in all that day). */
export const endOfDay = (value: unknown) =>
  value
    ? dayjs(value as string)
        .endOf('day')
        .toISOString()
    : null;

const expiry = (_dom: unknown, row: Tenant) => (
  <span>
    {row.expiresAt ? formatDate(row.expiresAt) : getIntl().formatMessage({ id: 'system.tenant.never' })}
    {row.expired && (
      <Tag color="error" style={{ marginLeft: 8 }} data-testid="tenant-expired">
        {getIntl().formatMessage({ id: 'system.tenant.expired' })}
      </Tag>
    )}
  </span>
);

const adminField = { hideInTable: true, hideInSearch: true, hideInDescriptions: true } as const;

/** Tenants (docs/domain.md §2.1): /system/tenant, permission prefix system:tenant. Creating one provisions its first administrator. */
export const tenantDescriptor = describeResource<Tenant, CreateTenant, UpdateTenant>('system/tenant', (column) => ({
  auditType: 'tenant',
  formLayout: 'DrawerForm',
  allows: (row, action) => !(action === 'delete' && row.code === 'platform'),
  lockReasonId: 'system.tenant.locked',
  form: {
    create: [
      'code',
      'name',
      'shortName',
      'packageId',
      'expiresAt',
      'maxAccounts',
      'contactName',
      'contactMobile',
      'contactEmail',
      'adminUserName',
      'adminDisplayName',
      'adminPassword',
      'remark',
    ],
    update: [
      'name',
      'shortName',
      'packageId',
      'maxAccounts',
      'domains',
      'contactName',
      'contactMobile',
      'contactEmail',
      'address',
      'remark',
    ],
  },
  columns: [
    column('keyword', { searchOnly: true }),
    column('code', { hideInSearch: true, sorter: true, required: true }),
    column('name', { hideInSearch: true, sorter: true, required: true }),
    column('shortName', { hideInSearch: true, hideInTable: true }),
    column('packageId', {
      titleId: 'system.tenant.package',
      valueType: 'select',
      request: packageOptions,
      render: (_dom, row) => row.packageName ?? '-',
      required: true,
    }),
    column('status', { dict: 'common_status', hideInForm: true }),
    column('expiresAt', {
      valueType: 'date',
      hideInSearch: true,
      sorter: true,
      render: expiry, // SchemaForm's own column option (not in ProColumns' type): the date becomes an ISO date-time
      ...({ transform: (value: unknown) => ({ expiresAt: endOfDay(value) }) } as object),
      fieldProps: { disabledDate: (d: dayjs.Dayjs) => d.isBefore(dayjs().startOf('day')) },
    }),
    column('maxAccounts', {
      valueType: 'digit',
      hideInSearch: true,
      render: (_dom, row) => `${row.accountCount} / ${row.maxAccounts}`,
      fieldProps: { min: 1, max: 1_000_000, precision: 0 },
      required: true,
    }),
    column('domains', {
      valueType: 'select',
      hideInSearch: true,
      hideInTable: true,
      fieldProps: { mode: 'tags', open: false },
    }),
    column('contactName', { hideInSearch: true, required: true }),
    column('contactMobile', { hideInSearch: true }),
    column('contactEmail', { hideInSearch: true, hideInTable: true }),
    column('address', { hideInSearch: true, hideInTable: true }),
    column('adminUserName', { ...adminField, required: true }),
    column('adminDisplayName', { ...adminField, required: true }),
    column('adminPassword', {
      valueType: 'password',
      ...adminField,
      required: true, // ProForm hands over its instance only after the first render
      renderFormItem: (schema, _config, form) => (
        <PasswordStrengthInput
          {...(schema.fieldProps as object)}
          userInputs={[form?.getFieldValue('adminUserName') ?? '', form?.getFieldValue('code') ?? '']}
        />
      ),
    }),
    column('createdAt', { valueType: 'dateTime', hideInSearch: true, hideInForm: true, sorter: true }),
    column('remark', { valueType: 'textarea', hideInTable: true, hideInSearch: true }),
  ],
}));
