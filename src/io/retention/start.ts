/**
 * Starting the background `ctx prune` from a SessionStart: at most once per
 * `retention.interval_h` per project, off the hook's path (one stat when it is not due).
 * `<root>/state/retention.json` says when it last started; `state/retention.claim`, created
 * exclusively, makes two SessionStarts at once start one prune.
 */
import type { Config } from "../../core/config-schema.ts";
import type { Env } from "../../core/deps.ts";
import { layout, STATE_DIRS } from "../../core/layout.ts";
import { FUTURE_SLACK_MS } from "../../core/plausible.ts";
import { ensureDirUnder } from "../fs/dirs.ts";
import { mtimeMs } from "../fs/read.ts";
import { unlinkQuiet } from "../fs/sys.ts";
import { createNew, writeJsonAtomic } from "../fs/write.ts";
import { selfCommand, spawnDetached } from "../process/proc.ts";

/** A claim older than this was left by a killed hook: it is removed (the next SessionStart starts the prune). */
const CLAIM_STALE_MS = 10 * 60_000;

/**
 * When the background prune is due: "start" when the last start is older than the interval (or
 * from the future), "clock" when there is none yet (the marker starts the interval: the first
 * prune comes one interval after ctx first saw the project), else undefined. Never with both limits off.
 */
function retentionDue(root: string, cfg: Config, nowMs: number): "start" | "clock" | undefined {
  if (cfg["retention.max_age_days"] === false && cfg["retention.keep_per_chain"] === false) return undefined;
  const last = mtimeMs(layout(root).retention);
  if (last === undefined) return "clock";
  if (last > nowMs + FUTURE_SLACK_MS) return "start";
  return nowMs - last >= cfg["retention.interval_h"] * 3_600_000 ? "start" : undefined;
}

/**
 * Starts `ctx prune --project <project>` detached when it is due; returns its pid, or undefined
 * when it was not due, another hook claimed it, or the state root is not writable.
 */
export async function startRetentionIfDue(
  env: Env,
  project: string,
  root: string,
  cfg: Config,
  nowMs: number,
): Promise<number | undefined> {
  const due = retentionDue(root, cfg, nowMs);
  if (!due) return undefined;
  const files = layout(root);
  try {
    ensureDirUnder(root, STATE_DIRS.state);
    createNew(files.retentionClaim);
  } catch {
    const claimed = mtimeMs(files.retentionClaim);
    if (claimed !== undefined && Math.abs(nowMs - claimed) > CLAIM_STALE_MS) unlinkQuiet(files.retentionClaim);
    return undefined;
  }
  try {
    // Another hook may have started it between our look and our claim: its marker is new then.
    if (retentionDue(root, cfg, nowMs) !== due) return undefined;
    const iso = new Date(nowMs).toISOString();
    writeJsonAtomic(files.retention, due === "start" ? { version: 1, started_at: iso } : { version: 1, since: iso });
  } catch {
    return undefined;
  } finally {
    unlinkQuiet(files.retentionClaim);
  }
  if (due === "clock") return undefined;
  return spawnDetached([...selfCommand(), "prune", "--project", project], env, project);
}
