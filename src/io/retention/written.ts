/**
 * `ctx prune`'s part of `${XDG_STATE_HOME:-~/.local/state}/ctx/written/` (io/written.ts): a record
 * goes once the summary or twin it names is gone or holds something else, never while that file
 * still exists as ctx wrote it. A record from before records named their file (empty) goes only
 * once aged past `retention.max_age_days` and matching no summary or twin of the project pruned.
 */
import { join } from "node:path";
import type { Env } from "../../core/deps.ts";
import { layout, STATE_DIRS, userLayout } from "../../core/layout.ts";
import { isSummaryName } from "../../core/resume/summaries.ts";
import { expired, type RetentionLimits } from "../../core/retention.ts";
import { twinPathOf } from "../../core/summary/twin.ts";
import { realDirsUnder } from "../fs/dirs.ts";
import { listDir } from "../fs/list-dir.ts";
import { readFileSafe } from "../fs/read.ts";
import { writtenMac, type WrittenKind } from "../written.ts";
import { regularStat, removeOurs } from "./remove.ts";

/** A record younger than this is left alone: finalize records a summary just before it writes it. */
const GRACE_MS = 10 * 60_000;

/** The largest summary or twin read to check a record. */
const MAX_BYTES = 4 * 1024 * 1024;

/** Removes the records of `written/` whose file is gone (see above); returns how many (with `dry`, would). */
export function pruneWritten(env: Env, root: string, limits: RetentionLimits, nowMs: number, dry: boolean): number {
  const user = userLayout(env);
  if (user.missing || !realDirsUnder(user.dir, "written")) return 0;
  let local: Set<string> | undefined; // the records of the project's own summaries and twins
  let removed = 0;
  for (const name of listDir(user.written)) {
    const path = user.writtenRecord(name);
    const st = path === undefined ? undefined : regularStat(path);
    if (!path || !st || nowMs - st.mtimeMs < GRACE_MS) continue;
    const target = (readFileSafe(path, { maxBytes: 4096 }) ?? "").trim();
    if (target === "") {
      if (!expired(st.mtimeMs, nowMs, limits.maxAgeMs)) continue;
      local ??= projectRecords(env, root);
      if (local.has(name)) continue;
    } else {
      if (!target.startsWith("/")) continue; // not a record ctx wrote: left alone
      const text = readFileSafe(target, { maxBytes: MAX_BYTES });
      if (text !== undefined && writtenMac(env, text, kindOf(target)) === name) continue;
    }
    if (removeOurs(path, undefined, false, dry)) removed++;
  }
  return removed;
}

// --- internal ---

function kindOf(path: string): WrittenKind {
  return path.endsWith(".json") ? "twin" : "summary";
}

/** The record names of every summary and twin in the project's `sessions/`. */
function projectRecords(env: Env, root: string): Set<string> {
  const out = new Set<string>();
  if (!realDirsUnder(root, STATE_DIRS.records)) return out;
  const dir = layout(root).records;
  for (const name of listDir(dir).filter(isSummaryName))
    for (const path of [join(dir, name), twinPathOf(join(dir, name))]) {
      const text = readFileSafe(path, { maxBytes: MAX_BYTES });
      const mac = text === undefined ? undefined : writtenMac(env, text, kindOf(path));
      if (mac) out.add(mac);
    }
  return out;
}
