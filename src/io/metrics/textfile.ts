/**
 * The metrics textfile for node_exporter's textfile collector: `<dir>/ctx.prom`, replaced atomically
 * (a temp file named `.ctx.prom.*.tmp`, which the collector skips, then a rename), readable by the
 * exporter's user (0644). The background refresh from a hook, at most once a minute (docs/metrics.md).
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import type { Config } from "../../core/config-schema.ts";
import type { Env } from "../../core/deps.ts";
import { userLayout } from "../../core/layout.ts";
import { FUTURE_SLACK_MS } from "../../core/plausible.ts";
import { mtimeMs } from "../fs/read.ts";
import { writeFileAtomic, writeJsonAtomic } from "../fs/write.ts";
import { selfCommand, spawnDetached } from "../process/proc.ts";

/** The file name node_exporter reads in its textfile directory. */
export const TEXTFILE_NAME = "ctx.prom";

/** Least time between two background refreshes. */
export const REFRESH_MS = 60_000;

/** Writes `text` as `<dir>/ctx.prom` atomically; the directory must exist and be a directory. Returns the path. */
export function writeTextfile(dir: string, text: string): string {
  if (!statSync(dir).isDirectory()) throw new Error(`${dir} is not a directory`);
  const path = join(dir, TEXTFILE_NAME);
  writeFileAtomic(path, text, 0o644);
  return path;
}

/**
 * Starts `ctx metrics --textfile <metrics.textfile_dir>` detached when the key is set and the last
 * start is a minute old or more (one stat when it is not); returns its pid, or undefined.
 */
export async function refreshTextfileIfDue(
  env: Env,
  cfg: Config,
  nowMs: number,
  cwd: string,
): Promise<number | undefined> {
  const dir = cfg["metrics.textfile_dir"];
  if (!dir || !dir.startsWith("/")) return undefined;
  const marker = userLayout(env).metricsRefresh;
  if (!marker) return undefined;
  const last = mtimeMs(marker);
  if (last !== undefined && last <= nowMs + FUTURE_SLACK_MS && nowMs - last < REFRESH_MS) return undefined;
  writeJsonAtomic(marker, { version: 1, started_at: new Date(nowMs).toISOString() });
  return spawnDetached([...selfCommand(), "metrics", "--textfile", dir], env, cwd);
}
