import path from 'node:path';

/** file-type is ESM only: under tsx a static import becomes require(), which Node 20 accepts only from 20.19. */
let fileType: Promise<typeof import('file-type')> | undefined;

/** How many leading bytes `sniffType` needs (file-type's own minimum for its deepest signatures). */
export const SNIFF_BYTES = 4100;

/** Text formats have no signature; for these alone the name's extension decides, once the bytes prove to be text. */
const TEXT_TYPES: Record<string, string> = { txt: 'text/plain', csv: 'text/csv', md: 'text/markdown' };

/**
 * The real type of a file from its first bytes (`head`, up to SNIFF_BYTES), whatever its name claims: an .exe named
 * .png answers exe. Undefined when the bytes match no known format and are not a text format by name.
 */
export async function sniffType(head: Uint8Array, name: string): Promise<{ mime: string; ext: string } | undefined> {
  fileType ??= import('file-type');
  const detected = await (await fileType).fileTypeFromBuffer(head);
  if (detected) return { mime: detected.mime, ext: detected.ext };
  const ext = path.extname(name).slice(1).toLowerCase();
  const mime = TEXT_TYPES[ext];
  return mime && isText(head) ? { mime, ext } : undefined;
}

/** Valid UTF-8 without NUL; `stream` tolerates a character cut at the end of the head. */
function isText(bytes: Uint8Array): boolean {
  if (bytes.includes(0)) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}
