import { dirname, isAbsolute, join } from "../../core/pathx.ts";
import { readFileSafe } from "../fs/read.ts";

/**
 * The current git branch of `dir`, read from `.git/HEAD` (no subprocess).
 * A detached HEAD gives the short commit; no repository gives undefined.
 */
export function gitBranch(dir: string): string | undefined {
  let current = dir;
  for (let depth = 0; depth < 40; depth++) {
    const head = headOf(join(current, ".git"));
    if (head !== undefined) return parseHead(head);
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
  return undefined;
}

/** The branch named by a HEAD file's content. */
export function parseHead(head: string): string | undefined {
  const ref = /^ref:\s*refs\/heads\/(.+)$/m.exec(head);
  if (ref) return ref[1]!.trim();
  const sha = /^[0-9a-f]{40,64}$/m.exec(head.trim());
  return sha ? sha[0].slice(0, 7) : undefined;
}

// --- internal ---

function headOf(gitPath: string): string | undefined {
  const direct = readFileSafe(join(gitPath, "HEAD"), { maxBytes: 4096 });
  if (direct !== undefined) return direct;
  // A worktree or submodule: `.git` is a file saying `gitdir: <path>`.
  const pointer = readFileSafe(gitPath, { maxBytes: 4096 });
  const m = pointer && /^gitdir:\s*(.+)$/m.exec(pointer);
  if (!m) return undefined;
  const target = m[1]!.trim();
  return readFileSafe(join(isAbsolute(target) ? target : join(dirname(gitPath), target), "HEAD"), { maxBytes: 4096 });
}
