/** "Did you mean": the known word nearest to a mistyped one. Pure. */

/**
 * Edit distance with adjacent transpositions (optimal string alignment): `stauts` is one edit
 * from `status`, as a person counts it.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i]);
  for (let j = 1; j <= b.length; j++) d[0]![j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        best = Math.min(best, d[i - 2]![j - 2]! + 1);
      d[i]![j] = best;
    }
  return d[a.length]![b.length]!;
}

/**
 * The candidate nearest to `word` when it is close enough to be a typo (at most a third of the
 * word's length away, at least one edit), else undefined. A candidate that starts with the word
 * (`stat` for `status`) counts too.
 */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  let best: string | undefined;
  let bestDist = Infinity;
  for (const c of candidates) {
    const d = c.startsWith(w) && w.length >= 3 ? 1 : editDistance(w, c.toLowerCase());
    if (d < bestDist) [best, bestDist] = [c, d];
  }
  return best !== undefined && bestDist <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}
