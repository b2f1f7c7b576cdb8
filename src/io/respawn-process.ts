/** Process management for `ctx respawn`: the background daemon and `stop`. */
import { closeSync, openSync } from "node:fs";
import { join } from "node:path";
import type { Deps } from "../core/deps.ts";
import { ensureDir } from "./fsx.ts";
import { selfCommand } from "./respawn-actions.ts";
import { listRecords, readRecord } from "./respawn-store.ts";

/**
 * Starts `ctx respawn <argv>` detached in its own session, output to
 * `<root>/state/respawn/<name>.log`; returns its pid.
 */
export function daemonize(argv: string[], root: string, name: string, deps: Pick<Deps, "env" | "cwd">): number {
  const dir = join(root, "state", "respawn");
  ensureDir(dir);
  const fd = openSync(join(dir, `${name}.log`), "a", 0o600);
  try {
    const proc = Bun.spawn([...selfCommand(), "respawn", ...argv], {
      cwd: deps.cwd, env: { ...deps.env, CTX_RESPAWN_DAEMON: "1" } as Record<string, string>,
      stdin: "ignore", stdout: fd, stderr: fd, detached: true,
    });
    proc.unref();
    return proc.pid;
  } finally {
    closeSync(fd);
  }
}

/**
 * Sends SIGTERM to the running supervisors of `root` (only `name` when given)
 * and waits up to 10 s for each to record that it stopped. Returns their names.
 * The supervised panes are left alone.
 */
export async function stopSupervisors(root: string, name?: string): Promise<string[]> {
  const names = name ? [name] : listRecords(root);
  const stopped: string[] = [];
  for (const n of names) {
    const rec = readRecord(root, n);
    if (!rec || rec.phase === "stopped" || !alive(rec.pid)) continue;
    process.kill(rec.pid, "SIGTERM");
    for (let i = 0; i < 100 && alive(rec.pid) && readRecord(root, n)?.phase !== "stopped"; i++) await Bun.sleep(100);
    stopped.push(n);
  }
  return stopped;
}

// --- internal ---

function alive(pid: unknown): pid is number {
  if (typeof pid !== "number" || !Number.isInteger(pid) || pid <= 1) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}
