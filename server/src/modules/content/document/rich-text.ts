import sanitizeHtml from 'sanitize-html';

/**
 * Rich text as stored (docs/domain.md §0.2): the client's HTML is never trusted. Only the markup the console's editor
 * makes is kept (paragraphs, headings, lists, quotes, code, links, images, tables), without scripts, styles, event
 * handlers or `javascript:` addresses; its plain text is kept beside it for search and previews.
 */
const SAFE: sanitizeHtml.IOptions = {
  allowedTags: [
    'p',
    'br',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'sub',
    'sup',
    'code',
    'pre',
    'blockquote',
    'ul',
    'ol',
    'li',
    'hr',
    'a',
    'img',
    'table',
    'thead',
    'tbody',
    'tr',
    'th',
    'td',
    'mark',
  ],
  allowedAttributes: {
    a: ['href', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    ol: ['start'],
    th: ['colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  transformTags: {
    a: (tagName, attribs) => ({
      tagName,
      attribs: attribs.target === '_blank' ? { ...attribs, rel: 'noopener noreferrer' } : attribs,
    }),
  },
};

const BLOCK_END = /<\/(p|h[1-6]|li|blockquote|pre|tr|th|td)>|<br\s*\/?>/gi;
const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'", nbsp: ' ' };

/** The safe HTML of `html` and its plain text (blocks on lines of their own); both null when nothing is left. */
export function cleanRichText(html: string | null | undefined): { html: string | null; text: string | null } {
  if (html === null || html === undefined) return { html: null, text: null };
  const clean = sanitizeHtml(html, SAFE).trim();
  const text = sanitizeHtml(clean.replace(BLOCK_END, '$&\n'), { allowedTags: [], allowedAttributes: {} })
    .replace(/&(amp|lt|gt|quot|#39|nbsp);/g, (_, name: string) => ENTITIES[name] ?? '')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim();
  return { html: clean || null, text: text || null };
}
