/** Process management for `ctx respawn`: the background daemon, `stop`, and the one-supervisor-per-name-and-pane rule. */
import { closeSync, fstatSync, readFileSync } from "node:fs";
import { layout, STATE_DIRS } from "../../core/layout.ts";
import type { Deps } from "../../core/deps.ts";
import { ensureDirUnder } from "../fs/dirs.ts";
import { openAppendFile } from "../fs/write.ts";
import { readBytesSafe } from "../fs/read.ts";
import { selfCommand } from "../process/proc.ts";
import type { RespawnRecord } from "../../core/respawn/record.ts";
import { listRecords, readRecord } from "./store.ts";
import { pidAlive } from "../fs/lock.ts";

/** How long `--daemon` watches the child before it reports success. */
export const DAEMON_CHECK_MS = 1500;

/** A supervisor started in the background. */
export interface Daemon {
  /** Its pid. */
  pid: number;
  /** Resolves with its exit code when it ends. */
  exited: Promise<number>;
  /** Its log, `<root>/state/respawn/<name>.log`. */
  log: string;
  /** The log's size before it started: what it writes comes after. */
  logOffset: number;
}

/**
 * Starts `ctx respawn <argv>` detached in its own session, output appended to
 * `<root>/state/respawn/<name>.log`.
 */
export function daemonize(argv: string[], root: string, name: string, deps: Pick<Deps, "env" | "cwd">): Daemon {
  ensureDirUnder(root, STATE_DIRS.respawn); // no symlinked state directory on the way
  const log = layout(root).respawnLog(name);
  const fd = openAppendFile(log); // never through a symlink, never blocking on a FIFO
  try {
    const logOffset = fstatSync(fd).size;
    const proc = Bun.spawn([...selfCommand(), "respawn", ...argv], {
      cwd: deps.cwd,
      env: { ...deps.env, CTX_RESPAWN_DAEMON: "1" } as Record<string, string>,
      stdin: "ignore",
      stdout: fd,
      stderr: fd,
      detached: true,
    });
    proc.unref();
    return { pid: proc.pid, exited: proc.exited, log, logOffset };
  } finally {
    closeSync(fd);
  }
}

/**
 * Watches a fresh daemon for up to `ms`: undefined when it is still running,
 * else its exit code and what it wrote to its log.
 */
export async function daemonFailure(
  d: Daemon,
  ms = DAEMON_CHECK_MS,
): Promise<{ code: number; output: string } | undefined> {
  const code = await Promise.race([d.exited, Bun.sleep(ms).then(() => undefined)]);
  if (code === undefined) return undefined;
  const bytes = readBytesSafe(d.log, { maxBytes: 16 * 1024 * 1024 });
  return { code, output: bytes ? bytes.subarray(d.logOffset).toString("utf8") : "" };
}

/**
 * The live supervisor of `root` that already has `name` or supervises pane
 * `target` (`%N`), if any. Live: its record is not `stopped` and its pid runs
 * `ctx respawn` (a dead supervisor's pid reused by another program is not it).
 */
export function liveConflict(root: string, name: string, target?: string): RespawnRecord | undefined {
  for (const n of listRecords(root)) {
    const rec = readRecord(root, n);
    if (!rec || !isLive(rec)) continue;
    if (rec.name === name || n === name || (target !== undefined && rec.target === target)) return rec;
  }
  return undefined;
}

/**
 * Sends SIGTERM to the running supervisors of `root` (only `name` when given)
 * and waits up to 10 s for each to record that it stopped. Returns their names.
 * The supervised panes are left alone.
 */
export async function stopSupervisors(root: string, name?: string): Promise<Array<{ name: string; target: string }>> {
  const names = name ? [name] : listRecords(root);
  const stopped: Array<{ name: string; target: string }> = [];
  for (const n of names) {
    const rec = readRecord(root, n);
    if (!rec || !isLive(rec)) continue;
    process.kill(rec.pid, "SIGTERM");
    for (let i = 0; i < 100 && alive(rec.pid) && readRecord(root, n)?.phase !== "stopped"; i++) await Bun.sleep(100);
    stopped.push({ name: n, target: rec.target });
  }
  return stopped;
}

// --- internal ---

function isLive(rec: RespawnRecord): boolean {
  return rec.phase !== "stopped" && alive(rec.pid) && runsRespawn(rec.pid);
}

function alive(pid: unknown): pid is number {
  return typeof pid === "number" && Number.isInteger(pid) && pid > 1 && pidAlive(pid);
}

/** True when the process's argv holds `respawn` (true when /proc cannot tell). */
function runsRespawn(pid: number): boolean {
  let cmdline: string;
  try {
    cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
  } catch {
    return true;
  }
  return cmdline.split("\0").includes("respawn");
}
