import { DatePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';

const FORMAT = 'YYYY-MM-DD';

interface Props {
  range: boolean;
  value?: string | string[];
  onChange?: (value: string | string[] | undefined) => void;
}

/** A date or a date range of a search form, held as 'YYYY-MM-DD' strings (the list contract's values). */
export default function DateSearchField({ range, value, onChange, ...rest }: Props) {
  if (range) {
    const [from, to] = Array.isArray(value) ? value : [];
    return (
      <DatePicker.RangePicker
        {...rest}
        format={FORMAT}
        // a link's range of instants ends where the next day begins: its last day is the one before
        value={from && to ? [dayjs(from), to.includes('T') ? dayjs(to).subtract(1, 'ms') : dayjs(to)] : null}
        onChange={(dates) =>
          onChange?.(dates?.[0] && dates[1] ? [dates[0].format(FORMAT), dates[1].format(FORMAT)] : undefined)
        }
      />
    );
  }
  return (
    <DatePicker
      {...rest}
      format={FORMAT}
      value={typeof value === 'string' ? dayjs(value) : null}
      onChange={(date: Dayjs | null) => onChange?.(date ? date.format(FORMAT) : undefined)}
    />
  );
}
