import type { ListColumn } from './types';

/** Whether a column is a field of the list's search form. */
export const searchable = <Row,>(column: ListColumn<Row>) =>
  !column.hideInSearch && column.search !== false && column.valueType !== 'option' && column.dataIndex !== undefined;

/** One line of the inline form in its card: the height kept for a search form not yet measured. */
const ONE_LINE_HEIGHT = 82;

/**
 * The room of a list's search form while it is not there yet (it renders after the first page, and loads on first use:
 * ListSearchForm): the height it had last time (`heightKey`), else one line.
 */
export default function SearchFormRoom<Row>({ columns, heightKey }: { columns: ListColumn<Row>[]; heightKey: string }) {
  if (!columns.some(searchable)) return null;
  const height = Number(localStorage.getItem(heightKey)) || ONE_LINE_HEIGHT;
  return <div data-testid="table-search-room" style={{ height }} />;
}
