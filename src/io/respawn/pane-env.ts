/**
 * Handing an environment to a tmux pane without putting any value on a command
 * line (where `ps` shows it to every user, and where a tmux server started by
 * that command keeps it for its whole life). The variables go to a 0600 file in
 * a fresh 0700 directory; the pane runs a tiny `sh` launcher that sources the
 * file, deletes it and its directory, and `exec`s the real command (so the
 * pane's process is the command itself).
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmpDir } from "../../core/paths.ts";
import { mtimeMs } from "../fs/read.ts";
import type { Env } from "../../core/deps.ts";

/** The launcher: `sh -c LAUNCHER ctx-launch <file> -- <argv…>`. */
const LAUNCHER = 'f=$1; shift 2; . "$f" || exit 127; rm -f -- "$f"; rmdir -- "${f%/*}" 2>/dev/null; exec "$@"';

/** Names a POSIX shell can export. */
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** A prepared hand-over: the pane's command, and the cleanup to run once tmux has started it. */
export interface PaneLaunch {
  /** The command to give tmux: the launcher, the env file's path, then `argv`. */
  command: string[];
  /** The env file (0600, in a private 0700 directory). */
  file: string;
  /** Waits (at most `ms`) for the launcher to take the file, then removes whatever is left. */
  settle(ms?: number): Promise<void>;
  /** Removes the file and its directory now (tmux failed to start the pane). */
  discard(): void;
}

/**
 * Writes `set` (exported) and `unset` (removed) to a private env file under
 * `$TMPDIR` of `env` and returns the launcher command for `argv`.
 */
export function prepareLaunch(env: Env, set: Env, unset: readonly string[], argv: readonly string[]): PaneLaunch {
  const dir = mkdtempSync(join(tmpDir(env), "ctx-launch-")); // mode 0700
  const file = join(dir, "env");
  const lines = unset.filter((k) => NAME.test(k)).map((k) => `unset ${k}`);
  for (const [k, v] of Object.entries(set)) if (v !== undefined && NAME.test(k)) lines.push(`export ${k}=${quote(v)}`);
  const discard = () => rmSync(dir, { recursive: true, force: true });
  try {
    writeFileSync(file, `${lines.join("\n")}\n`, { mode: 0o600, flag: "wx" });
  } catch (err) {
    discard();
    throw err;
  }
  return {
    command: ["sh", "-c", LAUNCHER, "ctx-launch", file, "--", ...argv],
    file,
    async settle(ms = 10_000) {
      const deadline = Date.now() + ms;
      while (mtimeMs(file) !== undefined && Date.now() < deadline) await Bun.sleep(20);
      discard();
    },
    discard,
  };
}

// --- internal ---

/** `v` as one single-quoted shell word. */
function quote(v: string): string {
  return `'${v.replace(/'/g, "'\\''")}'`;
}
