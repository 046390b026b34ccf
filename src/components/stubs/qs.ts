/**
 * Stands in for `qs` (build only, see .umirc.ts), which with its dependencies would ride in the first download.
 * umi-request is its only user: it turns dates and objects among `params` into strings, then serialises them with
 * `arrayFormat: 'repeat'` and `strictNullHandling` (`a=1&a=2`; null: the bare key; undefined: left out), and parses
 * URLSearchParams given as params back the same way. The URL standard's encoding does both.
 */
type Query = Record<string, string | null | (string | null)[]>;

export function stringify(params: Record<string, unknown> | unknown[]): string {
  const pairs: string[] = [];
  const add = (key: string, value: unknown) => {
    if (value === undefined) return;
    const name = encodeURIComponent(key);
    pairs.push(value === null ? name : `${name}=${encodeURIComponent(String(value))}`);
  };
  for (const [key, value] of Object.entries(params)) {
    if (Array.isArray(value)) for (const item of value) add(key, item);
    else add(key, value);
  }
  return pairs.join('&');
}

export function parse(query: string): Query {
  const result: Query = {};
  for (const pair of query.replace(/^\?/, '').split('&')) {
    if (!pair) continue;
    const at = pair.indexOf('=');
    const decode = (part: string) => decodeURIComponent(part.replace(/\+/g, ' '));
    const key = decode(at < 0 ? pair : pair.slice(0, at));
    const value = at < 0 ? null : decode(pair.slice(at + 1));
    const known = result[key];
    result[key] = known === undefined ? value : Array.isArray(known) ? [...known, value] : [known, value];
  }
  return result;
}
