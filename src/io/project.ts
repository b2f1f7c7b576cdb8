/** Finding the project a command typed by a person belongs to, from any of its subfolders. */
import { type Stats, statSync } from "node:fs";
import { dirname, isAbsolute, join, resolve } from "node:path";
import { CtxError, type Env } from "../core/deps.ts";
import { undecodable, usableDir } from "../core/paths.ts";
import { foreignReason } from "./fs/owner.ts";

/**
 * The project of a command a person types (`resume`, `finalize`, `status`, `doctor`, `respawn`,
 * `install --project`): `CLAUDE_PROJECT_DIR` when set (the agent ran it), else {@link projectFrom}
 * the working directory. Hooks use core/paths.ts projectDir (the hook's cwd) instead. A project
 * path that is not valid UTF-8 is a CtxError (ctx cannot name it: it would write to a sibling),
 * unless CTX_DIR names a usable state directory.
 */
export function findProject(env: Env, cwd: string): string {
  const project =
    env.CLAUDE_PROJECT_DIR && isAbsolute(env.CLAUDE_PROJECT_DIR) ? env.CLAUDE_PROJECT_DIR : projectFrom(cwd);
  if (undecodable(project) && !usableDir(env.CTX_DIR))
    throw new CtxError(
      1,
      `the project directory is not valid UTF-8 (${JSON.stringify(project)}): ctx cannot name it`,
      "rename the directory, or set CTX_DIR to a state directory whose name is UTF-8",
    );
  return project;
}

/**
 * Walks up from `dir` to the nearest folder that has a `.ctx/` directory, not past the git
 * root; else the git root (the nearest folder with `.git`); else `dir` itself. Without a git
 * checkout, a `.ctx/` anywhere above counts, except in `/`.
 */
export function projectFrom(dir: string): string {
  const start = resolve(dir);
  for (let d = start, depth = 0; depth < 128; depth++) {
    if (!ownDir(statOf(d))) break; // never into another user's directory (git's safe.directory rule)
    const ctx = statOf(join(d, ".ctx"));
    if (ctx?.isDirectory()) return ownDir(ctx) ? d : start; // another user's .ctx is not this project's
    if (statOf(join(d, ".git"))) return d;
    const parent = dirname(d);
    if (parent === d || parent === "/") break;
    d = parent;
  }
  return start;
}

// --- internal ---

/** True for a directory the user may take as theirs (owner.ts `foreignReason`). */
function ownDir(st: Stats | undefined): boolean {
  return st !== undefined && foreignReason({ uid: st.uid, perm: st.mode & 0o7777 }) === undefined;
}

/** What is at `path` (following a link), or undefined when nothing can be found there. */
function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}
