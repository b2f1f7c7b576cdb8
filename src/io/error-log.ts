/**
 * The hook error log, `${XDG_STATE_HOME:-~/.local/state}/ctx/errors.log`: one
 * line per error a hook swallowed, so `ctx doctor` can show what went wrong
 * even though hooks print nothing. Writing it never throws and stays cheap.
 */
import { closeSync, constants, fstatSync, ftruncateSync, openSync, writeSync } from "node:fs";
import { userLayout } from "../core/layout.ts";
import { ensureDirUnder } from "./fs/dirs.ts";
import { readFileSafe } from "./fs/read.ts";
import { debug, type Deps, type Env } from "../core/deps.ts";

/** Past this size the log is emptied before the next line (it only needs the recent errors). */
const MAX_BYTES = 256 * 1024;

/**
 * Appends `<ISO time> <command>: <message>` to the error log. Never throws:
 * a hook must survive a read-only or full disk.
 */
export function recordHookError(deps: { env: Env; now: () => number }, command: string, err: unknown): void {
  appendLine(deps, "errorLog", command, err);
}

/** Appends one line about what no client claimed to `unclaimed.log` (never errors.log: it is no error of ctx's). */
export function recordUnclaimed(deps: { env: Env; now: () => number }, command: string, what: string): void {
  appendLine(deps, "unclaimedLog", command, what);
}

function appendLine(
  deps: { env: Env; now: () => number },
  which: "errorLog" | "unclaimedLog",
  command: string,
  err: unknown,
): void {
  try {
    const { [which]: path, dir, missing } = userLayout(deps.env);
    if (missing) return; // no per-user directory (HOME unset): nowhere to record it
    ensureDirUnder(dir);
    const fd = openSync(
      path,
      constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | constants.O_NOFOLLOW | constants.O_NONBLOCK,
      0o600,
    );
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return;
      if (st.size > MAX_BYTES) ftruncateSync(fd, 0);
      writeSync(fd, formatErrorLine(new Date(deps.now()).toISOString(), command, err));
    } finally {
      closeSync(fd);
    }
  } catch {
    // nowhere to record it: the hook still exits 0
  }
}

/** Reports what no client's adapter claims (io/unclaimed.ts): under CTX_DEBUG, and to its log. */
export function reportUnclaimedSync(deps: Deps, command: string, what: string): void {
  debug(deps, `${command}: ${what}`);
  recordUnclaimed(deps, command, what);
}

/** One log line: time, command and the error's first line, at most 500 characters. */
export function formatErrorLine(iso: string, command: string, err: unknown): string {
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  const flat = message.replace(/\s+/g, " ").trim().slice(0, 500);
  return `${iso} ctx ${command}: ${flat}\n`;
}

/** The last `n` lines of the error log, or of the unclaimed log (empty when there is none). */
export function readRecentErrors(env: Env, n: number, which: "errorLog" | "unclaimedLog" = "errorLog"): string[] {
  const text = readFileSafe(userLayout(env)[which], { maxBytes: MAX_BYTES * 2 });
  if (!text) return [];
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .slice(-n);
}
