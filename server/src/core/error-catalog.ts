import { type ErrorCodeDefinition, type ErrorKey, errorCodes } from './error-codes';
import { formatMessage, type Lang } from './i18n';
import { findLabel } from './labels';

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
    // a record's status as the console names it ("待审核"), not its code ("pending_review")
    const labels = (errorCodes as Record<string, ErrorCodeDefinition>)[key]?.statusLabels;
    const label = labels && params.status !== undefined && findLabel(`${labels}.${params.status}`, lang);
    // in the middle of an English sentence: "a question that is pending review"
    const status = label && (lang === 'en-US' ? label.charAt(0).toLowerCase() + label.slice(1) : label);
    return formatMessage(template, status ? { ...params, status } : params);
  }
}
