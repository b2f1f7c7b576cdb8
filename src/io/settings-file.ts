/**
 * File side of `ctx install` / `uninstall` / `doctor`: where the agents'
 * settings files are, reading them (following the user's own symlink, as a
 * dotfiles manager would set up), timestamped backups and atomic writes.
 */
import {
  closeSync,
  constants,
  existsSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  realpathSync,
  rmdirSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { CtxError, type Env } from "../core/deps.ts";
import { basename, dirname, isAbsolute, join } from "node:path";
import type { Agent } from "../core/settings/entries.ts";
import { agent as agentAdapter } from "../core/agents/index.ts";
import { usableDir } from "../core/paths.ts";
import { userLayout } from "../core/layout.ts";
import { ensureDir } from "./fs/dirs.ts";
import { readFileSafe } from "./fs/read.ts";
import { writeFileAtomic } from "./fs/write.ts";
import { findProject } from "./project.ts";
import { fileStamp } from "../core/track/stamp.ts";

/**
 * The settings file to edit: the user's, or the project's with `project` set. Without a usable
 * HOME the user's file is unknown: a CtxError, never `/.claude/settings.json`.
 */
export function settingsPath(env: Env, agent: Agent, project?: string): string {
  const { dir, file, homeEnv } = agentAdapter(agent).settings;
  if (project !== undefined) return join(project, dir, file);
  const own = homeEnv ? env[homeEnv] : undefined;
  if (own && isAbsolute(own)) return join(own, file);
  const home = usableDir(env.HOME);
  if (!home)
    throw new CtxError(
      1,
      `${env.HOME ? "HOME is not an absolute UTF-8 path" : "HOME is not set"}: the user's ~/${dir}/${file} is unknown`,
      "set HOME to your home directory, or use --project for the project's settings",
    );
  return join(home, dir, file);
}

/** A settings file as found on disk. */
export interface SettingsText {
  /** The path that was asked for. */
  path: string;
  /** The file actually read and written (the symlink's target when `path` is one). */
  realPath: string;
  /** False when there is no file yet. */
  exists: boolean;
  /** The file's text ("" when missing). */
  text: string;
  /** Permission bits to keep when rewriting. */
  mode: number;
}

/** Reads a settings file; throws when it exists but is not a readable regular file. */
export function readSettingsText(path: string): SettingsText {
  let realPath = path;
  try {
    realPath = realpathSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === "ENOENT" && !isLink(path)) {
      // No file yet: it goes into the real directory (~/.claude may itself be a dotfiles link).
      let dir = dirname(path);
      try {
        dir = realpathSync(dir);
      } catch {
        // not there yet: created on write
      }
      return { path, realPath: join(dir, basename(path)), exists: false, text: "", mode: 0o644 };
    }
    // A dangling or looping symlink (a dotfiles link whose target is gone): replacing it would lose the link.
    if (code === "ENOENT" || code === "ELOOP")
      throw new CtxError(
        1,
        `${path} is a symlink that ${code === "ELOOP" ? "loops" : "points to nothing"} (-> ${linkTarget(path)}); not changing it`,
        "fix the link (or remove it) and run the command again",
      );
    throw err;
  }
  const st = statSync(realPath);
  if (!st.isFile()) throw new Error(`${path} is not a regular file`);
  const text = readFileSafe(realPath, { maxBytes: 16 * 1024 * 1024 });
  if (text === undefined) throw new Error(`cannot read ${path}`);
  return { path, realPath, exists: true, text, mode: st.mode & 0o777 };
}

/**
 * Copies the current text to `<file>.bak-<UTC stamp>` (never overwriting one), or into `dir` when
 * given (a project's file: its backups stay out of the project), and returns its path.
 */
export function backupSettings(file: SettingsText, nowMs: number, dir?: string): string {
  if (dir) ensureDir(dir);
  const stem = `${dir ? join(dir, basename(file.realPath)) : file.realPath}.bak-${fileStamp(nowMs)}`;
  for (let n = 0; ; n++) {
    const target = n === 0 ? stem : `${stem}-${n}`;
    try {
      const fd = openSync(
        target,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
        file.mode,
      );
      try {
        writeFileSync(fd, file.text);
      } finally {
        closeSync(fd);
      }
      return target;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST" || n > 100) throw err;
    }
  }
}

/** Writes the new text atomically over the real file, keeping its permissions. */
export function writeSettingsText(file: SettingsText, text: string): void {
  ensureDir(dirname(file.realPath));
  writeFileAtomic(file.realPath, text, file.mode);
}

/** The lock file guarding read-modify-write of a settings file. */
export function settingsLockPath(file: SettingsText): string {
  return join(dirname(file.realPath), `.${basename(file.realPath)}.ctx-lock`);
}

/**
 * The running ctx binary (`process.execPath` of the compiled executable), or
 * undefined when running from source under bun, where there is none to register.
 */
export function selfBinary(): string | undefined {
  const exe = process.execPath;
  return /^bun(\.exe)?$/.test(basename(exe)) || !isAbsolute(exe) ? undefined : exe;
}

// --- internal ---

function isLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

function linkTarget(path: string): string {
  try {
    return readlinkSync(path);
  } catch {
    return "?";
  }
}

/**
 * The project whose settings `--project` edits: `CLAUDE_PROJECT_DIR`, else the nearest folder
 * with `.ctx/` or the enclosing git checkout, else `cwd` (io/project.ts findProject).
 */
export function projectRoot(env: Env, cwd: string): string {
  return findProject(env, cwd);
}

/**
 * True when ctx created this settings file: what is left without ctx's entries is `{}`, and there
 * is no backup of it (ctx backs a file up before its first write, so a file that was there before
 * ctx has one; a file ctx created has none).
 */
export function createdByCtx(file: SettingsText, left: Record<string, unknown>, backups?: string): boolean {
  if (Object.keys(left).length > 0) return false;
  const prefix = `${basename(file.realPath)}.bak-`;
  const has = (dir: string) => readdirSync(dir).some((n) => n.startsWith(prefix));
  try {
    if (backups && existsSync(backups) && has(backups)) return false;
    return !has(dirname(file.realPath));
  } catch {
    return false;
  }
}

/** Where the backups of a project's settings file go: per user, named by the file's real path. */
export function projectBackupDir(env: Env, realPath: string): string | undefined {
  const key = new Bun.CryptoHasher("sha256").update(realPath).digest("hex").slice(0, 16);
  return userLayout(env).settingsBackups(key);
}

/** Removes a settings file (the real file: a symlink to it would dangle, so only a plain one). */
export function removeSettingsFile(file: SettingsText): void {
  unlinkSync(file.realPath);
}

/** Removes `dir` when it is empty (the `~/.claude/` ctx made for the file); true when it did. */
export function removeEmptyDir(dir: string): boolean {
  try {
    if (readdirSync(dir).length > 0) return false;
    rmdirSync(dir);
    return true;
  } catch {
    return false; // not empty after all, or not ours to remove: leave it
  }
}
