/**
 * What a name must not carry to a reader: C0 and C1 controls, and the marks, embeddings, overrides and isolates that
 * reorder the text around them (U+200E/F, U+202A–U+202E, U+2066–U+2069), with which `invoice‮fdp.exe` reads as
 * `invoiceexe.pdf`.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the control characters are what it removes
const HIDDEN = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** A name as it is shown: its hidden characters removed. */
export const shownName = (name: string): string => name.replace(HIDDEN, '').trim();

/**
 * The name a file is served under: the uploader's name, shown (see shownName), with the extension of the type the
 * server found in its content (`ext`), so that the name never promises another kind of file than the bytes are. A file
 * whose type is not known yet (a direct upload not confirmed) keeps its name.
 */
export function downloadName(original: string, ext: string | null): string {
  const name = shownName(original);
  if (!ext) return name || 'file';
  const dot = name.lastIndexOf('.');
  const base = dot > 0 ? name.slice(0, dot) : name;
  const own = dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
  if (own === ext || (ext === 'jpg' && own === 'jpeg')) return name;
  return `${base || 'file'}.${ext}`;
}
