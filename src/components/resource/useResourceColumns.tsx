import type { ProColumns } from '@ant-design/pro-components';
import { useIntl, useSelector } from '@umijs/max';
import { Tag } from 'antd';
import { useMemo } from 'react';
import type { RootState } from '@/models/root';
import { dictEnum } from './dict';
import type { ResourceColumn } from './types';

/** The descriptor's columns as ProColumns: titles translated, dictionary enums rendered as coloured tags. */
export function useResourceColumns<Row>(
  columns: ResourceColumn<Row>[],
): (Omit<ProColumns<Row>, 'hideInDescriptions'> & Pick<ResourceColumn<Row>, 'hideInDescriptions' | 'formDisabled'>)[] {
  const intl = useIntl();
  const sysCodes = useSelector((state: { root: RootState }) => state.root.sysCodes);
  return useMemo(
    () =>
      columns.map(({ titleId, dict, searchOnly, options, ...rest }) => {
        const title = intl.formatMessage({ id: titleId });
        const column = searchOnly ? { ...rest, hideInTable: true, hideInForm: true, hideInDescriptions: true } : rest;
        if (!dict && !options) return { ...column, title } as ProColumns<Row>;
        const valueEnum = dict
          ? dictEnum(dict, sysCodes, intl.locale)
          : new Map<string | number, { text: string; color?: string }>(
              options!.map((o) => [o.value, { text: intl.formatMessage({ id: o.labelId }), color: o.color }]),
            );
        return {
          title,
          valueEnum,
          // a column's own render (a status with its reason) wins over the plain tag; its search keeps the choices
          render: (_dom: unknown, row: Row) => {
            const value = (row as Record<string, unknown>)[String(column.dataIndex)];
            if (value === undefined || value === null || value === '' || (Array.isArray(value) && !value.length))
              return '-';
            const tag = (v: unknown) => {
              const entry = valueEnum.get(v as string) ?? valueEnum.get(String(v));
              return (
                <Tag key={String(v)} color={entry?.color}>
                  {entry?.text ?? String(v)}
                </Tag>
              );
            };
            return Array.isArray(value) ? value.map(tag) : tag(value);
          },
          ...column,
        } as ProColumns<Row>;
      }),
    [columns, intl, sysCodes],
  );
}
