import { ExportOutlined, ImportOutlined, LockOutlined, PlusOutlined } from '@ant-design/icons';
import { Link, useAccess, useIntl } from '@umijs/max';
import { Button, Popconfirm, Tooltip } from 'antd';
import { type ReactNode, useMemo, useRef, useState } from 'react';
import type { PermissionCode } from '@/access';
import ActionLink from '@/components/ActionLink';
import { type ResourceService, resourceService } from '@/services/resource';
import { saveBlob } from '@/utils/download';
import message from '@/utils/message';
import { withoutPaging } from './params';
import { codes, type ListColumn, type RowDescriptor } from './types';
import { useResourceColumns } from './useResourceColumns';

/** The service a screen of the descriptor uses: the one it is given (tests), else the resource's HTTP contract. */
export function useResourceService<Row extends { id: string; version: number }>(
  descriptor: { resource: string },
  given?: ResourceService<Row, never, never>,
): ResourceService<Row, never, never> {
  return useMemo(() => given ?? resourceService<Row>(descriptor.resource), [given, descriptor.resource]);
}

/**
 * What every list of a descriptor offers, each behind its permission code: the service, the create / import /
 * export toolbar (export sends the last list query without paging) and the edit and delete links of a row.
 */
export function useResourceControls<Row extends { id: string; version: number }>(
  descriptor: RowDescriptor<Row>,
  given?: ResourceService<Row, never, never>,
) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const access = useAccess();
  const code = { ...codes(descriptor.permission), ...descriptor.actions };
  const writes = [code.create, code.update, code.delete, code.import];
  const can = (c: PermissionCode) =>
    Boolean(access[c]) &&
    !(descriptor.readOnly && writes.includes(c)) &&
    (!descriptor.platformOwned || access.platformOperator || !writes.includes(c));
  const allows = (row: Row, action: 'update' | 'delete') => descriptor.allows?.(row, action, access) ?? true;
  const service = useResourceService(descriptor, given);
  const lastQuery = useRef<Record<string, string>>({});
  const [exporting, setExporting] = useState(false);

  /**
   * The export of `query` (the same file either way) says it started, and when its file is ready (one message,
   * replaced in place).
   */
  const exportOf = async (query: Record<string, string>) => {
    const progress = `export:${descriptor.resource}`;
    setExporting(true);
    try {
      // shown before the file can be ready to replace it
      await message.loading({ key: progress, content: t('resource.export.started'), duration: 0 });
      const { blob, filename } = await service.exportFile(query);
      const name = filename ?? `${descriptor.resource}.xlsx`;
      saveBlob(blob, name);
      message.success({ key: progress, content: t('resource.export.ready', { filename: name }) });
    } catch {
      // the request layer has shown why
      message.destroy(progress);
    } finally {
      setExporting(false);
    }
  };
  /** Every record the last list query matches (without paging). */
  const exportAll = () => exportOf(withoutPaging(lastQuery.current));
  /** The chosen records, whatever the filter (a resource whose list filters by `ids`). */
  const exportSelected = (ids: string[]) => exportOf({ ids: ids.join(',') });

  const toolbar = (onCreate: () => void, onImport: () => void): ReactNode[] =>
    [
      can(code.create) && (
        <Button key="create" type="primary" icon={<PlusOutlined />} data-testid="table-create" onClick={onCreate}>
          {t('resource.create')}
        </Button>
      ),
      can(code.import) && (
        <Button key="import" icon={<ImportOutlined />} data-testid="table-import" onClick={onImport}>
          {t('resource.import')}
        </Button>
      ),
      can(code.export) && (
        <Button
          key="export"
          icon={<ExportOutlined />}
          data-testid="table-export"
          loading={exporting}
          onClick={exportAll}
        >
          {t('resource.export')}
        </Button>
      ),
    ].filter(Boolean) as ReactNode[];

  /** The row's profile, where the descriptor has one. */
  const profileLink = (row: Row) =>
    descriptor.profile &&
    can(code.list) && (
      <Link key="profile" to={descriptor.profile(row)} data-testid="row-profile">
        {t('resource.profile')}
      </Link>
    );

  const editLink = (row: Row, onEdit: () => void) =>
    can(code.update) &&
    allows(row, 'update') && (
      <ActionLink key="edit" data-testid="row-edit" onClick={onEdit}>
        {t('resource.edit')}
      </ActionLink>
    );

  const deleteLink = (row: Row, onConfirm: () => void) =>
    can(code.delete) &&
    allows(row, 'delete') && (
      <Popconfirm key="delete" title={t('resource.deleteConfirm')} onConfirm={onConfirm}>
        <ActionLink data-testid="row-delete">{t('resource.delete')}</ActionLink>
      </Popconfirm>
    );

  /** Why a row refuses a change the user may otherwise make (built-in, the platform's): a lock that says so. */
  const lockReason = (row: Row): string | undefined => {
    if (descriptor.readOnly) return undefined;
    const refused = (['update', 'delete'] as const).find(
      (action) => access[code[action]] && !(can(code[action]) && allows(row, action)),
    );
    if (!refused) return undefined;
    if (descriptor.platformOwned && !access.platformOperator) return t('resource.locked.platform');
    const reason = descriptor.lockReasonId;
    return t((typeof reason === 'object' ? reason[refused] : reason) ?? 'resource.locked');
  };

  const lockIcon = (row: Row) => {
    const reason = lockReason(row);
    return (
      reason && (
        <Tooltip key="locked" title={reason}>
          <LockOutlined data-testid="row-locked" aria-label={reason} />
        </Tooltip>
      )
    );
  };

  const baseColumns = useResourceColumns(descriptor.columns);
  /** The descriptor's columns as a list shows them, then `extra` ones, then a row's profile link and its actions. */
  const listColumns = (actions: (row: Row) => ReactNode[], extra: ListColumn<Row>[] = []): ListColumn<Row>[] => [
    ...baseColumns.map(({ hideInDescriptions: _d, ...column }) => column as ListColumn<Row>),
    ...extra,
    {
      title: t('resource.actions'),
      key: 'option',
      valueType: 'option',
      render: (_dom, row) => [profileLink(row), ...actions(row)].filter(Boolean),
    },
  ];

  return {
    t,
    code,
    can,
    allows,
    service,
    lastQuery,
    toolbar,
    exporting,
    exportSelected,
    editLink,
    deleteLink,
    lockIcon,
    listColumns,
  };
}
