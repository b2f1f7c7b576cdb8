/**
 * Finding the project from any of its subfolders: one rule for the commands a person types and for
 * every hook, so a client started in a subfolder shares the repository's `.ctx/`. Hot path (status line,
 * monitor): lstat through io/fs/sys.ts, no node:fs.
 */
import { CtxError, type Env } from "../core/deps.ts";
import { projectDir, undecodable, usableDir } from "../core/paths.ts";
import { dirname, isAbsolute, join, normalize } from "../core/pathx.ts";
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
    const ctx = lstatOf(join(d, ".ctx"));
    // A link named .ctx marks the project as a directory does (its writes refuse to follow it).
    if (ctx?.isDirectory || ctx?.isSymlink) return d;
    if (lstatOf(join(d, ".git"))) return d;
    const parent = dirname(d);
    if (parent === d || parent === "/") break;
    d = parent;
  }
  return start;
}

// --- internal ---

/** What is at `path` itself, or undefined when nothing can be found there. */
function lstatOf(path: string): Stat | undefined {
  try {
    return sys().lstat(path);
  } catch {
    return undefined;
  }
}
