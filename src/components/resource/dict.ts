import { getLocale } from '@umijs/max';
import type { SysCode } from '@/models/root';
import { getRootState } from '@/utils/store';

const BADGE_STATUS: Record<string, 'Success' | 'Error' | 'Processing' | 'Warning' | 'Default'> = {
  success: 'Success',
  error: 'Error',
  processing: 'Processing',
  warning: 'Warning',
  default: 'Default',
};

export interface DictEnumEntry {
  text: string;
  /** ProTable badge status for antd's status colours. */
  status?: 'Success' | 'Error' | 'Processing' | 'Warning' | 'Default';
  /** The dictionary colour as given (antd Tag accepts both status names and colours). */
  color?: string;
}

/**
 * A ProTable `valueEnum` of one dictionary type from `sysCodes`, in the current locale (English label
 * when the locale is en-US and the item has one), ordered by `sort`.
 */
export function dictEnum(
  type: string,
  sysCodes: SysCode[] = getRootState().sysCodes,
  locale: string = getLocale(),
): Map<string, DictEnumEntry> {
  const items = sysCodes.filter((c) => c.type === type).sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0));
  return new Map(
    items.map((item) => {
      const text = (locale === 'en-US' && item.labelEn) || item.label;
      const color = item.color || undefined;
      const status = color ? BADGE_STATUS[color] : undefined;
      return [item.value, { text, ...(status ? { status } : {}), ...(color ? { color } : {}) }];
    }),
  );
}
