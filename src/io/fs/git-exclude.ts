/**
 * The other way to keep ctx's state out of git, for a `.ctx/.gitignore` ctx cannot make its own (a
 * repository committed a directory, or another non-file, at that path): the pattern `/<.ctx>/` in the
 * repository's own `info/exclude`, which no commit can carry or change. Read without git (a hook
 * may call it): the `.git` directory or `gitdir:` file above the project, a worktree's `commondir`.
 */
import { dirname, join, normalize } from "../../core/pathx.ts";
import { readFileSafe } from "./read.ts";
import { closeQuiet, sys } from "./sys.ts";

/** The comment line ctx writes above its pattern in `info/exclude`. */
const NOTE = "# Written by ctx: its state stays out of git (.ctx/.gitignore is not a file it can write).";

/** Where `root` (a project's `.ctx`) is excluded: the exclude file and the pattern, or undefined outside a repository. */
export function excludeTarget(root: string): { file: string; pattern: string } | undefined {
  for (let top = dirname(root); ; top = dirname(top)) {
    const common = commonDir(join(top, ".git"));
    // Glob characters in the path are escaped: the pattern names exactly this directory.
    const rel = root.slice(top.length + 1).replace(/[*?[\\]/g, "\\$&");
    if (common) return { file: join(common, "info", "exclude"), pattern: `/${rel}/` };
    if (dirname(top) === top) return undefined;
  }
}

/** True when `info/exclude` already holds ctx's pattern for `root`. */
export function excludedFromGit(root: string): boolean {
  const t = excludeTarget(root);
  if (!t) return false;
  const text = readFileSafe(t.file, { maxBytes: 1024 * 1024 }) ?? "";
  return text.split("\n").some((l) => l.trim() === t.pattern);
}

/**
 * Adds ctx's pattern for `root` to the repository's `info/exclude` (appended, never through a
 * link); true when it is there now or `root` is in no repository, false when it could not be written.
 */
export function excludeFromGit(root: string): boolean {
  const t = excludeTarget(root);
  if (!t) return true; // no repository: git stages nothing
  if (excludedFromGit(root)) return true;
  try {
    try {
      sys().mkdir(dirname(t.file), 0o755);
    } catch {
      // it exists (or cannot be made: the open below says so)
    }
    const old = readFileSafe(t.file, { maxBytes: 1024 * 1024 }) ?? "";
    const fd = sys().openAppend(t.file, 0o644);
    try {
      if (!sys().fstat(fd).isFile) return false;
      sys().writeAll(fd, Buffer.from(`${old === "" || old.endsWith("\n") ? "" : "\n"}${NOTE}\n${t.pattern}\n`));
    } finally {
      closeQuiet(fd);
    }
    return true;
  } catch {
    return false;
  }
}

// --- internal ---

/** The repository's common git directory for a `.git` at `dotGit` (a directory or a `gitdir:` file), or undefined. */
function commonDir(dotGit: string): string | undefined {
  let st: ReturnType<ReturnType<typeof sys>["lstat"]>;
  try {
    st = sys().lstat(dotGit);
  } catch {
    return undefined;
  }
  let gitDir = dotGit;
  if (!st.isDirectory) {
    const line = /^gitdir:\s*(.+?)\s*$/m.exec(readFileSafe(dotGit, { maxBytes: 4096 }) ?? "")?.[1];
    if (!line) return undefined;
    gitDir = normalize(line.startsWith("/") ? line : join(dirname(dotGit), line));
  }
  const common = readFileSafe(join(gitDir, "commondir"), { maxBytes: 4096 })?.trim();
  if (!common) return gitDir;
  return normalize(common.startsWith("/") ? common : join(gitDir, common));
}
