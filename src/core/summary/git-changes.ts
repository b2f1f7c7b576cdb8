/**
 * Files changed by commands (`sed -i`, `mv`, code generators): what `git status` shows changed
 * since the session started, beyond what the tool calls edited. Pure: the git output is given.
 */

/** The git state of a repository at a moment: HEAD and each changed path's content hash. */
export interface GitSnapshot {
  /** The repository's top-level directory. */
  top: string;
  /** HEAD's commit, or null in a repository without commits. */
  head: string | null;
  /** Changed paths (relative to top) → content hash (`git hash-object`), `deleted` when gone. */
  dirty: Record<string, string>;
}

/** The paths of `git status --porcelain -z` output (a rename gives its new path), in order. */
export function parsePorcelainZ(text: string): string[] {
  const parts = text.split("\0");
  const out: string[] = [];
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i]!;
    if (p.length < 4) continue;
    out.push(p.slice(3));
    if (p[0] === "R" || p[0] === "C") i++; // the original path follows
  }
  return out;
}

/** True for a path inside ctx's own state (`.ctx/` at any depth). */
export function isCtxState(rel: string): boolean {
  return rel === ".ctx" || rel.startsWith(".ctx/") || rel.includes("/.ctx/");
}

/**
 * The paths (relative to top) changed since `start`: dirty now with different content than at the
 * start (or not dirty then), plus those `committed` since (the diff of start's HEAD to now's).
 * ctx's `.ctx/` is left out. Without a start snapshot, every dirty path counts.
 */
export function changedSince(start: GitSnapshot | null, now: GitSnapshot, committed: readonly string[]): string[] {
  const out = new Set<string>();
  for (const [rel, hash] of Object.entries(now.dirty)) if (start?.dirty[rel] !== hash) out.add(rel);
  for (const rel of committed) out.add(rel);
  // a file dirty at the start and clean now was changed too (reverted, or committed)
  if (start) for (const rel of Object.keys(start.dirty)) if (!(rel in now.dirty)) out.add(rel);
  return [...out].filter((rel) => !isCtxState(rel)).sort();
}
