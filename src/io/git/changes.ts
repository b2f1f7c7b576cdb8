/**
 * The git side of "files changed by commands": a snapshot of the repository when a session starts
 * (written by track on SessionStart to `<root>/state/git-start/<sid>.json`), and at finalize what
 * changed since. Each git call is bounded (2 s, 4 MiB); any failure gives null, never an error.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { layout, STATE_DIRS } from "../../core/layout.ts";
import { changedSince, isCtxState, parsePorcelainZ, type GitSnapshot } from "../../core/summary/git-changes.ts";
import { ensureDirUnder } from "../fs/dirs.ts";
import { readJsonFile } from "../fs/read.ts";
import { writeJsonAtomic } from "../fs/write.ts";
import { git } from "./repo.ts";

/** Most changed paths hashed in one snapshot. */
const MAX_PATHS = 500;

/**
 * Records the repository's state at a session's start, once (a resumed session keeps its first);
 * never through a symlink at the state root or under it (throws ENOTDIR then).
 */
export function recordGitStart(root: string, sessionId: string, project: string): void {
  const path = layout(root).gitStartFile(sessionId);
  if (!path || readJsonFile(path).status === "ok") return;
  const snap = gitSnapshot(project);
  if (!snap) return;
  ensureDirUnder(root, STATE_DIRS.gitStart);
  writeJsonAtomic(path, snap);
}

/**
 * Absolute paths changed since the session started (see core changedSince), or null outside a
 * repository.
 */
export function changedSinceStart(root: string, sessionId: string, project: string): string[] | null {
  const now = gitSnapshot(project);
  if (!now) return null;
  const path = layout(root).gitStartFile(sessionId);
  const read = path ? readJsonFile<GitSnapshot>(path, { maxBytes: 4 * 1024 * 1024 }) : { status: "missing" as const };
  const start = read.status === "ok" && read.value?.top === now.top ? read.value : null;
  const committed =
    start?.head && now.head && start.head !== now.head
      ? lines(git(now.top, ["diff", "--name-only", "-z", start.head, now.head]), "\0")
      : [];
  return changedSince(start, now, committed).map((rel) => join(now.top, rel));
}

/** The repository's state now, or null outside one (or when git fails). */
export function gitSnapshot(dir: string): GitSnapshot | null {
  const top = git(dir, ["rev-parse", "--show-toplevel"])?.trim();
  if (!top) return null;
  const status = git(top, ["status", "--porcelain=v1", "-z", "--untracked-files=all"]);
  if (status === null) return null;
  const head = git(top, ["rev-parse", "--verify", "-q", "HEAD"])?.trim() || null;
  const paths = parsePorcelainZ(status)
    .filter((p) => !isCtxState(p))
    .slice(0, MAX_PATHS);
  const dirty: Record<string, string> = {};
  const present = paths.filter((p) => existsFile(join(top, p)));
  const hashes = present.length ? lines(git(top, ["hash-object", "--", ...present]), "\n") : [];
  present.forEach((p, i) => {
    dirty[p] = hashes[i] ?? "unknown";
  });
  for (const p of paths) if (!(p in dirty)) dirty[p] = "deleted";
  return { top, head, dirty };
}

// --- internal ---

function lines(text: string | null, sep: string): string[] {
  return text === null ? [] : text.split(sep).filter((l) => l !== "");
}

function existsFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
