export type Lang = 'zh-CN' | 'en-US';

/** Picks the supported language with the highest q in Accept-Language; zh-CN when none matches. */
export function resolveLang(acceptLanguage: string | undefined): Lang {
  if (!acceptLanguage) return 'zh-CN';
  let best: { lang: Lang; q: number } | undefined;
  for (const part of acceptLanguage.split(',')) {
    const [tag = '', ...attrs] = part.trim().toLowerCase().split(';');
    const qAttr = attrs.map((a) => a.trim()).find((a) => a.startsWith('q='));
    const q = qAttr ? Number(qAttr.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    const lang: Lang | undefined = tag.startsWith('en') ? 'en-US' : tag.startsWith('zh') ? 'zh-CN' : undefined;
    if (lang && (!best || q > best.q)) best = { lang, q };
  }
  return best?.lang ?? 'zh-CN';
}

export function formatMessage(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
