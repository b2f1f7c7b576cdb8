import { join } from "./pathx.ts";
import { isValidSessionId } from "./session-id.ts";
import type { Env } from "./deps.ts";

/**
 * True when `path` cannot name what it came from: it holds U+FFFD, what decoding left of bytes
 * that are not UTF-8 (an environment variable, the working directory or the hook's `cwd`). Used
 * as a path it names another, sibling directory, so ctx never creates a directory through it
 * (`ensureDir` in io/fs/dirs.ts) and a typed command refuses such a project (`findProject`).
 */
export function undecodable(path: string): boolean {
  return path.includes("\uFFFD");
}

/** `path` when it is absolute and decodable (a usable directory from the environment), else undefined. */
export function usableDir(path: string | undefined): string | undefined {
  return path?.startsWith("/") && !undecodable(path) ? path : undefined;
}

/** The temp directory: `$TMPDIR`, else `/tmp`, without a trailing slash. */
export function tmpDir(env: Env): string {
  const dir = usableDir(env.TMPDIR) ?? "/tmp";
  return dir.length > 1 ? dir.replace(/\/+$/, "") : dir;
}

/**
 * Where a hook starts looking for its project: `CLAUDE_PROJECT_DIR`, else the hook's `cwd`, else ours
 * (io/project.ts hookProject walks up from there, as typed commands do).
 */
export function projectDir(env: Env, hookCwd: unknown, cwd: string): string {
  if (env.CLAUDE_PROJECT_DIR?.startsWith("/")) return env.CLAUDE_PROJECT_DIR;
  if (typeof hookCwd === "string" && hookCwd.startsWith("/") && !hookCwd.includes("\0")) return hookCwd;
  return cwd;
}

/** The per-project state root: `CTX_DIR`, else `<project>/.ctx`. */
export function stateRoot(env: Env, project: string): string {
  return env.CTX_DIR?.startsWith("/") ? env.CTX_DIR : join(project, ".ctx");
}

/** The user's home directory as the environment gives it. */
export function homeDir(env: Env): string {
  return env.HOME?.startsWith("/") ? env.HOME : "/";
}

/** The user's config file: `${XDG_CONFIG_HOME:-~/.config}/ctx/config.yaml`. */
export function userConfigPath(env: Env): string {
  const base = env.XDG_CONFIG_HOME?.startsWith("/") ? env.XDG_CONFIG_HOME : join(homeDir(env), ".config");
  return join(base, "ctx", "config.yaml");
}

/** The project's config file: `<project>/.ctx/config.yaml`. */
export function projectConfigPath(project: string): string {
  return join(project, ".ctx", "config.yaml");
}

/** A per-session file `<dir>/<sessionId><suffix>`, or undefined for an unsafe session id. */
export function sessionFile(dir: string, sessionId: unknown, suffix = ".json"): string | undefined {
  return isValidSessionId(sessionId) ? join(dir, `${sessionId}${suffix}`) : undefined;
}

/**
 * The name of `path` when it is a file directly in `dir` (`<dir>/<name>`, no
 * `.`/`..` tricks, nothing deeper), else undefined. Every path ctx reads out of
 * a state file is checked this way against the directory it must be in.
 */
export function fileIn(dir: string, path: unknown): string | undefined {
  if (typeof path !== "string" || path.includes("\0")) return undefined;
  const prefix = dir.endsWith("/") ? dir : `${dir}/`;
  if (!path.startsWith(prefix) || dir.split("/").includes("..")) return undefined;
  const name = path.slice(prefix.length);
  return name !== "" && name !== "." && name !== ".." && !name.includes("/") ? name : undefined;
}
