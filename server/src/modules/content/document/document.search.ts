import { type RawBuilder, sql } from 'kysely';
import type { DocumentHighlight } from './document.resource';

/**
 * Keyword search over documents, in one place: the condition a list or a search adds, and how a match is shown.
 * For now a plain `ILIKE` on the title, the summary and the plain text (Chinese needs no word splitting this way; the
 * trigram indexes of migration 0027 answer it for three characters or more, where the list reads through them with
 * `countedList`). A full-text search (PostgreSQL full text with a Chinese parser, or a search engine) replaces
 * `matches` and `highlight` here and nothing else.
 */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** The documents (table alias `document`) whose title, summary or text contains `keyword`, case-insensitively. */
export function matches(keyword: string): RawBuilder<boolean> {
  const pattern = `%${escapeLike(keyword)}%`;
  return sql<boolean>`(document.title ILIKE ${pattern} OR document.summary ILIKE ${pattern}
    OR document.content_text ILIKE ${pattern})`;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `text` as HTML, every occurrence of `keyword` (case-insensitive) in `<mark>`. */
export function mark(text: string, keyword: string): string {
  const re = new RegExp(escapeRegExp(keyword), 'gi');
  let out = '';
  let last = 0;
  for (const m of text.matchAll(re)) {
    out += `${escapeHtml(text.slice(last, m.index))}<mark>${escapeHtml(m[0])}</mark>`;
    last = m.index + m[0].length;
  }
  return out + escapeHtml(text.slice(last));
}

/** Characters of the body shown around its first match. */
const AROUND = 60;

/** Where `keyword` is in a document: its title and summary marked, and the body around the first match. */
export function highlight(
  doc: { title: string; summary: string | null; contentText: string | null },
  keyword: string,
): DocumentHighlight {
  const text = doc.contentText ?? '';
  const at = text.toLowerCase().indexOf(keyword.toLowerCase());
  let snippet: string | null = null;
  if (at >= 0) {
    const from = Math.max(0, at - AROUND);
    const to = Math.min(text.length, at + keyword.length + AROUND);
    snippet = `${from > 0 ? '…' : ''}${mark(text.slice(from, to), keyword)}${to < text.length ? '…' : ''}`;
  }
  return {
    title: mark(doc.title, keyword),
    summary: doc.summary === null ? null : mark(doc.summary, keyword),
    snippet,
  };
}
