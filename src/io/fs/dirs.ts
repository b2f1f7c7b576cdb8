/**
 * State directories: created 0700 level by level, never through a symlink planted at one of
 * them, each `.ctx/` with its `.gitignore`; and the check that a directory can be read through.
 */
import { undecodable } from "../../core/paths.ts";
import { dirname, join } from "../../core/pathx.ts";
import { excludeFromGit } from "./git-exclude.ts";
import { foreignStateRoot } from "./owner.ts";
import { readFileSafe } from "./read.ts";
import { closeQuiet, sys, SysError, type Stat, unlinkQuiet } from "./sys.ts";

/**
 * Creates a directory and its parents (mode 0700 for new ones); fine if it
 * exists as a real directory. A symlink or anything else at `dir` is refused
 * (ENOTDIR): ctx never writes through a link planted at a state directory.
 * Inside a project's `.ctx/`, `.ctx` itself and every level down to `dir` are
 * checked the same way (a cloned repository can commit `.ctx -> /elsewhere`),
 * and `.ctx/.gitignore` holding `*` is written (see {@link ensureStateIgnore}). A path that is
 * not valid UTF-8 (it holds U+FFFD: it would name a sibling directory) is refused (EILSEQ).
 */
export function ensureDir(dir: string, mode = 0o700): void {
  if (undecodable(dir)) throw new SysError("EILSEQ", "mkdir (the path is not valid UTF-8: ctx cannot name it)", dir);
  const root = ctxRootOf(dir);
  if (root === undefined) return makeDir(dir, mode);
  makeDir(root, mode);
  const levels = dir.slice(root.length).split("/");
  for (let i = 1; i < levels.length; i++) if (levels[i]) makeDir(root + levels.slice(0, i + 1).join("/"), mode);
  ensureStateIgnore(root);
}

/**
 * Makes `<root>/.gitignore` hold exactly `*`, so ctx's state never lands in the user's git history
 * (as pytest and ruff do for their caches). The file is ctx's: one with any other content (a
 * committed `!*`, a symlink) is replaced, atomically and never through a link. A read-only
 * directory simply stays as it is (ctx doctor reports a tampered file); a non-file at the path
 * (a committed directory) makes ctx add `.ctx/` to the repository's `info/exclude`
 * (git-exclude.ts), and when that fails too it throws: ctx writes no state git would stage.
 */
function ensureStateIgnore(root: string): void {
  const path = join(root, ".gitignore");
  if (readFileSafe(path, { maxBytes: 4096 }) === STATE_IGNORE) return;
  const tmp = `${path}.${process.pid}.${Math.random().toString(36).slice(2, 10)}.tmp`;
  let fd: number;
  try {
    fd = sys().openExclusive(tmp, 0o644);
  } catch {
    return; // not writable
  }
  try {
    sys().writeAll(fd, Buffer.from(STATE_IGNORE));
  } catch {
    // a short file is still replaced below: better than the one there
  } finally {
    closeQuiet(fd);
  }
  try {
    sys().rename(tmp, path);
  } catch {
    unlinkQuiet(tmp);
    // A directory committed at the path: git ignores `.ctx/` through the repository's info/exclude
    // instead, and no state is written where git would stage it.
    if (!excludeFromGit(root))
      throw new SysError("EPERM", "keep the state out of git (.gitignore is not a file)", path);
  }
}

/**
 * Whether `<root>/.gitignore` is ctx's own (`ok`), missing, holds something else (`tampered`), or is a
 * directory (`not_a_file`: ctx cannot replace it, and keeps its state out of git through info/exclude).
 */
export function stateIgnoreState(root: string): "ok" | "missing" | "tampered" | "not_a_file" {
  const text = readFileSafe(join(root, ".gitignore"), { maxBytes: 4096 });
  if (text === STATE_IGNORE) return "ok";
  try {
    return sys().lstat(join(root, ".gitignore")).isDirectory ? "not_a_file" : "tampered";
  } catch {
    return "missing";
  }
}

/** The text of `.ctx/.gitignore`. */
export const STATE_IGNORE = "# Written by ctx: its state stays out of git.\n*\n";

/**
 * Creates `root/sub` level by level (see ensureDir), checking the root and
 * every level under it: a symlink at any of them is refused (ENOTDIR), and a project's `.ctx`
 * that is not the user's (io/fs/owner.ts) is refused (EPERM). The directories above `root`
 * are the user's and may be links.
 */
export function ensureDirUnder(root: string, sub = ""): string {
  const foreign = foreignStateRoot(root);
  if (foreign !== undefined) throw new SysError("EPERM", `use (${foreign})`, root);
  ensureDir(root);
  let dir = root;
  for (const part of sub.split("/").filter((p) => p !== "")) {
    dir = join(dir, part);
    ensureDir(dir);
  }
  return dir;
}

/**
 * True when `root` and each level of `sub` under it is a real directory or
 * missing (nothing to read there, nothing followed); false when any is a
 * symlink or not a directory, or `root` is a project's `.ctx` that is not the user's. (`lstat` lets a caller that has node:fs loaded
 * already skip loading the libc layer.)
 */
export function realDirsUnder(
  root: string,
  sub = "",
  lstat: (path: string) => Pick<Stat, "isSymlink" | "isDirectory" | "uid" | "perm"> = (p) => sys().lstat(p),
): boolean {
  let dir = root;
  for (const part of ["", ...sub.split("/").filter((p) => p !== "")]) {
    dir = part ? join(dir, part) : dir;
    let st: Pick<Stat, "isSymlink" | "isDirectory" | "uid" | "perm">;
    try {
      st = lstat(dir);
    } catch {
      return true; // missing (or unreachable): nothing below it is read or written
    }
    if (st.isSymlink || !st.isDirectory) return false;
    if (dir === root && foreignStateRoot(root, st) !== undefined) return false; // another user's .ctx
  }
  return true;
}

// --- internal ---

function makeDir(dir: string, mode: number): void {
  try {
    sys().mkdir(dir, mode);
  } catch (err) {
    const code = (err as SysError).code;
    if (code === "EEXIST") return requireRealDir(dir);
    if (code !== "ENOENT" || dirname(dir) === dir) throw err;
    makeDir(dirname(dir), mode);
    try {
      sys().mkdir(dir, mode);
    } catch (again) {
      if ((again as SysError).code !== "EEXIST") throw again;
      requireRealDir(dir);
    }
  }
}

/** The `…/.ctx` directory `dir` is or lies in (the innermost one), or undefined. */
function ctxRootOf(dir: string): string | undefined {
  const at = `${dir}/`.lastIndexOf("/.ctx/");
  return at < 0 ? undefined : dir.slice(0, at + 5);
}

/** Throws ENOTDIR unless `dir` is a real directory (not a symlink to one). */
function requireRealDir(dir: string): void {
  const st = sys().lstat(dir);
  if (st.isSymlink || !st.isDirectory) throw new SysError("ENOTDIR", "mkdir", dir);
}
