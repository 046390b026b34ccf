import { ColumnHeightOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { useIntl, useLocation } from '@umijs/max';
import { Button, Card, Checkbox, Dropdown, Input, Popover, Space, Table, type TableProps, Tooltip, theme } from 'antd';
import type { ColumnsType, TableRowSelection } from 'antd/es/table/interface';
import {
  type Key,
  lazy,
  type MutableRefObject,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
} from 'react';
import { usePaneShown } from '@/components/layout/frame';
import { LIST_PAGE_SIZE } from '@/constants';
import { firstPageShown, useFirstPageShown } from '@/utils/firstScreen';
import { ignoreShownError } from '@/utils/request';
import {
  ACTIONS_WIDTH,
  CELL_WIDTH,
  Clamped,
  type ColumnsState,
  columnKey,
  pinColumns,
  plainCell,
  readColumnsState,
} from './columnLayout';
import type SearchForm from './ListSearchForm';
import { filtersOfAddress, type ListFilter, type ListParams, type ListSort, toSort } from './params';
import SearchFormRoom, { searchable } from './SearchFormRoom';
import type { ListColumn } from './types';

/** The search form renders after the list's first page (src/utils/firstScreen.ts): it loads with the rest, not before. */
const ListSearchForm = lazy(() => import('./ListSearchForm')) as unknown as typeof SearchForm;

/** What a screen may ask of its list: fetch the current page again, forget the selected rows. */
export interface TableActions {
  reload: () => void;
  clearSelected?: () => void;
}

export interface ListPage<Row> {
  data: Row[];
  total: number;
  /** Counting stopped at `total`: more rows match (a search the server counts up to a cap). */
  totalCapped?: boolean;
}

type Density = 'large' | 'middle' | 'small';

export interface ListTableProps<Row> {
  rowKey: string;
  columns: ListColumn<Row>[];
  /** One page of rows for the search form's values, the sort and the column filters. */
  request: (params: ListParams, sort: ListSort, filter: ListFilter) => Promise<ListPage<Row>>;
  /** Fixed filters sent with every request, over the search form's (which does not offer them); a change fetches again. */
  params?: Record<string, string>;
  /** Shown instead of the last answer's rows (a tree whose levels the screen loads itself). */
  dataSource?: Row[];
  actionRef?: MutableRefObject<TableActions | undefined>;
  /** localStorage key of the columns shown. */
  persistenceKey: string;
  toolbar?: ReactNode[];
  headerTitle?: ReactNode;
  /** false: no search form (e.g. a side list). */
  search?: false;
  /** Toolbar options; `search` adds a keyword box (sent as `keyword`). */
  options?: { search?: boolean; reload?: boolean; setting?: boolean; density?: boolean };
  rowSelection?: TableRowSelection<Row> | false;
  /** The bar shown while rows are selected: the batch actions. */
  batchActions?: (selected: Key[]) => ReactNode;
  onLoad?: (rows: Row[]) => void;
  onRow?: TableProps<Row>['onRow'];
  rowClassName?: TableProps<Row>['rowClassName'];
  expandable?: TableProps<Row>['expandable'];
  /** What an empty answer shows instead of antd's "no data" (what to create first, say). */
  emptyText?: ReactNode;
}

/**
 * The list of every resource screen: a search form over antd's Table, a toolbar (the screen's buttons, reload,
 * density, the columns shown, kept in localStorage), sortable columns, paging with a page-size changer, and a bar
 * of batch actions while rows are selected. Columns are the descriptors' (ProComponents-shaped) columns.
 */
export default function ListTable<Row extends object>({
  rowKey,
  columns,
  request,
  params,
  dataSource,
  actionRef,
  persistenceKey,
  toolbar = [],
  headerTitle,
  search,
  options = { reload: true, setting: true, density: true },
  rowSelection,
  batchActions,
  onLoad,
  onRow,
  rowClassName,
  expandable,
  emptyText,
}: ListTableProps<Row>) {
  const intl = useIntl();
  const t = (id: string, values?: Record<string, string | number>) => intl.formatMessage({ id }, values);
  const { token } = theme.useToken();
  const { pathname, search: address } = useLocation();
  // a link may open the list filtered (`?status=in_training`): the filters of its search form's fields, when it has one
  const ownPath = useRef(pathname);
  const fromAddress = (text: string) => {
    const fields = search === false ? [] : columns.filter(searchable);
    const ranges = fields.filter((column) => column.valueType === 'dateRange').map(columnKey);
    return filtersOfAddress(text, fields.map(columnKey), ranges);
  };
  const [searchValues, setSearchValues] = useState<ListParams>(() => fromAddress(address));
  const appliedAddress = useRef(address);
  const [sort, setSort] = useState<ListSort>({});
  const [filter, setFilter] = useState<ListFilter>({});
  const [paging, setPaging] = useState({ current: 1, pageSize: LIST_PAGE_SIZE });
  const [page, setPage] = useState<ListPage<Row>>({ data: [], total: 0 });
  const [loading, setLoading] = useState(false);
  const [density, setDensity] = useState<Density>('large');
  const [columnsState, setColumnsState] = useState<ColumnsState>(() => readColumnsState(persistenceKey));
  const [selected, setSelected] = useState<Key[]>([]);
  const [version, setVersion] = useState(0);
  const [answered, setAnswered] = useState(false);
  // opened cold on this list, what its first row does not need follows its first page (src/utils/firstScreen.ts):
  // the search form (in the room it took last time), the toolbar, the rows' actions and the pagination
  const restShown = useFirstPageShown();
  const searchHeightKey = `${persistenceKey}:search-height`;
  const latest = useRef(0);
  const requestRef = useRef(request);
  requestRef.current = request;
  const onLoadRef = useRef(onLoad);
  onLoadRef.current = onLoad;

  const paramsKey = JSON.stringify(params ?? {});
  // the fixed filters as one value while they stay the same: a new object each render would fetch again
  const fixed = useMemo(() => JSON.parse(paramsKey) as Record<string, string>, [paramsKey]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: version asks for the same page again
  useEffect(() => {
    const call = ++latest.current;
    setLoading(true);
    requestRef
      .current({ ...searchValues, ...fixed, ...paging }, sort, filter)
      .then((answer) => {
        if (call !== latest.current) return;
        setPage(answer);
        onLoadRef.current?.(answer.data);
      }, ignoreShownError)
      .finally(() => {
        if (call !== latest.current) return;
        setLoading(false);
        setAnswered(true);
      });
  }, [fixed, searchValues, sort, filter, paging, version]);

  // the shell's extras wait for the first page of the list the console opened on (src/utils/firstScreen.ts)
  useEffect(() => {
    if (answered) firstPageShown();
  }, [answered]);

  const reload = useCallback(() => setVersion((v) => v + 1), []);
  // a kept list shows again after another tab: what was done there (a record saved, published) is in its page
  usePaneShown(reload);
  const clearSelected = useCallback(() => setSelected([]), []);
  useImperativeHandle(actionRef, () => ({ reload, clearSelected }), [reload, clearSelected]);

  const saveColumnsState = (next: ColumnsState) => {
    setColumnsState(next);
    localStorage.setItem(persistenceKey, JSON.stringify(next));
  };

  const tableColumns = useMemo(
    () =>
      pinColumns(
        columns.filter((column) => !column.hideInTable && columnsState[columnKey(column)]?.show !== false),
      ).map((column) => {
        const { title, dataIndex, sorter, width, fixed, render, filters, align } = column;
        const option = column.valueType === 'option';
        return {
          key: columnKey(column),
          title: title as ReactNode,
          dataIndex: dataIndex as string,
          sorter,
          sortOrder: sort[Array.isArray(dataIndex) ? dataIndex.join('.') : String(dataIndex)] ?? null,
          width,
          fixed,
          filters,
          align,
          render: (_value: unknown, row: Row, index: number) => {
            if (option && !restShown) return null;
            const dom = option ? null : plainCell(column, row);
            const shown = (render ? render(dom, row, index, undefined as never, column as never) : dom) as ReactNode;
            if (option)
              return (
                <Space size={[16, 4]} wrap style={{ maxWidth: ACTIONS_WIDTH }}>
                  {shown}
                </Space>
              );
            const content = Array.isArray(shown) ? <Space size="middle">{shown}</Space> : shown;
            return <Clamped width={typeof width === 'number' ? width : CELL_WIDTH}>{content}</Clamped>;
          },
        };
      }) as ColumnsType<Row>,
    [columns, columnsState, sort, restShown],
  );

  const settable = columns.filter((column) => !column.hideInTable && column.valueType !== 'option');
  const settings = (
    <div data-testid="table-column-settings" style={{ display: 'flex', flexDirection: 'column', gap: 4 }}>
      {settable.map((column) => {
        const key = columnKey(column);
        return (
          <Checkbox
            key={key}
            data-column={key}
            checked={columnsState[key]?.show !== false}
            onChange={(event) =>
              saveColumnsState({ ...columnsState, [key]: { ...columnsState[key], show: event.target.checked } })
            }
          >
            {column.title as ReactNode}
          </Checkbox>
        );
      })}
      <Button
        size="small"
        type="link"
        style={{ alignSelf: 'flex-start', padding: 0 }}
        onClick={() => saveColumnsState({})}
      >
        {t('table.columns.reset')}
      </Button>
    </div>
  );

  const optionButtons = [
    options.reload && (
      <Tooltip key="reload" title={t('table.reload')}>
        <Button type="text" icon={<ReloadOutlined />} onClick={reload} data-testid="table-reload" />
      </Tooltip>
    ),
    options.density !== false && (
      <Dropdown
        key="density"
        trigger={['click']}
        menu={{
          selectable: true,
          selectedKeys: [density],
          onClick: ({ key }) => setDensity(key as Density),
          items: (['large', 'middle', 'small'] as const).map((size) => ({
            key: size,
            label: t(`table.density.${size}`),
          })),
        }}
      >
        <Tooltip title={t('table.density')}>
          <Button type="text" icon={<ColumnHeightOutlined />} data-testid="table-density" />
        </Tooltip>
      </Dropdown>
    ),
    options.setting !== false && (
      <Popover key="setting" trigger="click" placement="bottomRight" title={t('table.columns')} content={settings}>
        <Tooltip title={t('table.columns')}>
          <Button type="text" icon={<SettingOutlined />} data-testid="table-column-setting" />
        </Tooltip>
      </Popover>
    ),
  ].filter(Boolean);

  // a filter the screen fixes is not the user's to choose
  const searchColumns = useMemo(() => {
    const names = Object.keys(fixed);
    return names.length ? columns.filter((column) => !names.includes(columnKey(column))) : columns;
  }, [columns, fixed]);

  const search_ = (values: ListParams) => {
    setSearchValues(values);
    setPaging((current) => ({ ...current, current: 1 }));
  };

  // opened again by another link while its tab is kept: that link's filters replace the search
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new address of this list's own path applies
  useEffect(() => {
    if (pathname !== ownPath.current || !address || address === appliedAddress.current) return;
    appliedAddress.current = address;
    search_(fromAddress(address));
  }, [pathname, address]);

  return (
    <Space direction="vertical" size={16} style={{ display: 'flex' }}>
      {search !== false &&
        (restShown ? (
          <Suspense fallback={<SearchFormRoom columns={searchColumns} heightKey={searchHeightKey} />}>
            <ListSearchForm
              columns={searchColumns}
              values={searchValues}
              onSearch={search_}
              heightKey={searchHeightKey}
            />
          </Suspense>
        ) : (
          <SearchFormRoom columns={searchColumns} heightKey={searchHeightKey} />
        ))}
      <Card styles={{ body: { paddingTop: 16 } }}>
        <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 16, flexWrap: 'wrap' }}>
          <div style={{ flex: 1, fontWeight: 500, fontSize: 16 }}>{headerTitle}</div>
          {options.search && (
            <Input.Search
              allowClear
              style={{ width: 200 }}
              // the box's name where it has no label (WCAG 4.1.2); its button is named by its icon
              aria-label={t('table.keyword')}
              placeholder={t('table.keyword')}
              data-testid="table-keyword"
              onSearch={(keyword) => search_({ ...searchValues, keyword: keyword || undefined })}
            />
          )}
          {restShown && toolbar}
          {restShown && optionButtons}
        </div>
        {selected.length > 0 && batchActions && (
          <div
            data-testid="table-selection"
            style={{
              display: 'flex',
              alignItems: 'center',
              gap: 16,
              marginBottom: 16,
              padding: '8px 16px',
              background: token.colorInfoBg,
              border: `1px solid ${token.colorInfoBorder}`,
              borderRadius: token.borderRadiusLG,
            }}
          >
            <span style={{ flex: 1 }}>
              {t('table.selected', { count: selected.length })}
              <Button type="link" size="small" onClick={clearSelected}>
                {t('table.clearSelection')}
              </Button>
            </span>
            {batchActions(selected)}
          </div>
        )}
        <Table<Row>
          rowKey={rowKey}
          size={density}
          loading={loading}
          columns={tableColumns}
          dataSource={dataSource ?? page.data}
          scroll={{ x: 'max-content' }}
          onRow={onRow}
          rowClassName={rowClassName}
          expandable={expandable}
          locale={emptyText ? { emptyText } : undefined}
          rowSelection={
            rowSelection
              ? {
                  ...rowSelection,
                  // each row's box has a name (WCAG 4.1.2)
                  getCheckboxProps: (row) => ({
                    'aria-label': t('table.selectRow'),
                    ...rowSelection.getCheckboxProps?.(row),
                  }),
                  selectedRowKeys: selected,
                  onChange: (keys, rows, info) => {
                    setSelected(keys);
                    rowSelection.onChange?.(keys, rows, info);
                  },
                }
              : undefined
          }
          pagination={
            restShown && {
              current: paging.current,
              pageSize: paging.pageSize,
              total: page.total,
              showTotal: page.totalCapped
                ? (total) => t('resource.list.totalCapped', { total: total.toLocaleString() })
                : undefined,
              showSizeChanger: true,
              onChange: (current, pageSize) => setPaging({ current, pageSize }),
            }
          }
          onChange={(_pagination, filters, sorter, { action }) => {
            if (action === 'sort') setSort(toSort(sorter));
            if (action === 'filter') setFilter(filters as ListFilter);
          }}
        />
      </Card>
    </Space>
  );
}
