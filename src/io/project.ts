/**
 * Finding the project from any of its subfolders: one rule for the commands a person types and for
 * every hook, so a client started in a subfolder shares the repository's `.ctx/`. Hot path (status line,
 * monitor): lstat through io/fs/sys.ts, no node:fs.
 */
import { CtxError, type Env } from "../core/deps.ts";
import { projectDir, undecodable, usableDir } from "../core/paths.ts";
import { dirname, isAbsolute, join, normalize } from "../core/pathx.ts";
import { foreignReason } from "./fs/owner.ts";
import { sys, type Stat } from "./fs/sys.ts";

/**
 * The project of a command a person types (`resume`, `finalize`, `status`, `doctor`, `respawn`,
 * `install --project`): {@link projectFrom} `CLAUDE_PROJECT_DIR` when set (the agent ran it),
 * else the working directory. A project path that is not valid UTF-8 is a CtxError (ctx cannot
 * name it: it would write to a sibling), unless CTX_DIR names a usable state directory.
 */
export function findProject(env: Env, cwd: string): string {
  const project = projectFrom(
    env.CLAUDE_PROJECT_DIR && isAbsolute(env.CLAUDE_PROJECT_DIR) ? env.CLAUDE_PROJECT_DIR : cwd,
  );
  if (undecodable(project) && !usableDir(env.CTX_DIR))
    throw new CtxError(
      1,
      `the project directory is not valid UTF-8 (${JSON.stringify(project)}): ctx cannot name it`,
      "rename the directory, or set CTX_DIR to a state directory whose name is UTF-8",
    );
  return project;
}

/**
 * The project of a hook (status line, track, monitor, resume --hook): {@link projectFrom} where the
 * client runs (`CLAUDE_PROJECT_DIR`, else the hook's `cwd`, else ours: core/paths.ts projectDir),
 * exactly as {@link findProject} finds it for a typed command.
 */
export function hookProject(env: Env, hookCwd: unknown, cwd: string): string {
  return projectFrom(projectDir(env, hookCwd, cwd));
}

/**
 * Walks up from `dir` to the nearest folder that has a `.ctx/` directory, not past the git
 * root; else the git root (the nearest folder with `.git`); else `dir` itself. Without a git
 * checkout, a `.ctx/` anywhere above counts, except in `/`. A relative `dir` is kept as it is.
 */
export function projectFrom(dir: string): string {
  if (!isAbsolute(dir)) return dir;
  const start = normalize(dir);
  for (let d = start, depth = 0; depth < 128; depth++) {
    if (!ownDir(statOf(d))) break; // never into another user's directory (git's safe.directory rule)
    const ctx = statOf(join(d, ".ctx"));
    if (ctx?.isDirectory) return ownDir(ctx) ? d : start; // another user's .ctx is not this project's
    if (statOf(join(d, ".git"))) return d;
    const parent = dirname(d);
    if (parent === d || parent === "/") break;
    d = parent;
  }
  return start;
}

// --- internal ---

/** True for a directory the user may take as theirs (owner.ts `foreignReason`). */
function ownDir(st: Stat | undefined): boolean {
  return st !== undefined && foreignReason(st) === undefined;
}

/**
 * What is at `path`, following a link (as stat(2) would: lstat, and only for a link its realpath),
 * or undefined when nothing can be found there. No node:fs: the status line and monitor walk too.
 */
function statOf(path: string): Stat | undefined {
  try {
    const st = sys().lstat(path);
    return st.isSymlink ? sys().lstat(sys().realpath(path)) : st;
  } catch {
    return undefined;
  }
}
