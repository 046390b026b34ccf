/** The 95th percentile of `samples` (NaN for none). */
export const p95 = (samples: number[]) => {
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)] ?? Number.NaN;
};

/** A kept-alive socket the server closed while its thread was busy resets once; the request is then sent again. */
export const fetchOnce = (url: string, init?: RequestInit) => fetch(url, init).catch(() => fetch(url, init));
