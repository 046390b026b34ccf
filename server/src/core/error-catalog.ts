import { type ErrorKey, errorCodes } from './error-codes';
import { formatMessage, type Lang } from './i18n';

export interface CatalogEntry {
  key: string;
  messageZh: string;
  messageEn: string;
}

/** Error messages as stored in error_code (editable), falling back to the declarations in code. */
export class ErrorCatalog {
  private readonly entries = new Map<string, CatalogEntry>();

  constructor() {
    for (const [key, def] of Object.entries(errorCodes)) {
      this.entries.set(key, { key, messageZh: def.zh, messageEn: def.en });
    }
  }

  load(rows: CatalogEntry[]): void {
    for (const row of rows) this.entries.set(row.key, row);
  }

  message(key: ErrorKey, lang: Lang, params: Record<string, string | number> = {}): string {
    const entry = this.entries.get(key);
    const template = entry ? (lang === 'en-US' ? entry.messageEn : entry.messageZh) : key;
    return formatMessage(template, params);
  }
}
