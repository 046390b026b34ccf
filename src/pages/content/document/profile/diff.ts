export interface DiffPart {
  kind: 'same' | 'removed' | 'added';
  text: string;
}

/**
 * The lines of `after` against those of `before` (a longest common subsequence): kept, taken out, put in, in order.
 * Documents are compared a version at a time, a few hundred lines at most.
 */
export function lineDiff(before: string, after: string): DiffPart[] {
  const a = before ? before.split('\n') : [];
  const b = after ? after.split('\n') : [];
  const common: number[][] = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1)
      common[i][j] = a[i] === b[j] ? common[i + 1][j + 1] + 1 : Math.max(common[i + 1][j], common[i][j + 1]);
  const parts: DiffPart[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      parts.push({ kind: 'same', text: a[i] });
      i += 1;
      j += 1;
    } else if (common[i + 1][j] >= common[i][j + 1]) {
      parts.push({ kind: 'removed', text: a[i] });
      i += 1;
    } else {
      parts.push({ kind: 'added', text: b[j] });
      j += 1;
    }
  }
  for (; i < a.length; i += 1) parts.push({ kind: 'removed', text: a[i] });
  for (; j < b.length; j += 1) parts.push({ kind: 'added', text: b[j] });
  return parts;
}
