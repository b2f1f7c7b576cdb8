import { lstatSync, unlinkSync } from "node:fs";
import { join } from "../../core/pathx.ts";
import { INDEX_DIR, STATE_DIRS, userLayout } from "../../core/layout.ts";
import { realDirsUnder } from "./dirs.ts";
import type { Env } from "../../core/deps.ts";
import { listDir } from "./list-dir.ts";

/** The temp files writeFileAtomic() creates: `.<name>.<pid>.<random>.tmp`. */
const TEMP = /^\..+\.\d+\.[a-z0-9]+\.tmp$/;

/**
 * Removes temp files that a killed writer left behind in `dir` (a kill -9
 * between create and rename): only ours by name, owned by us, regular files,
 * and older than `olderThanMs`, so a write in progress is never touched.
 * Returns how many were removed; errors are ignored.
 */
export function sweepStaleTemps(dir: string, nowMs: number, olderThanMs = 10 * 60_000, prefix = "."): number {
  let removed = 0;
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  for (const name of listDir(dir)) {
    if (!name.startsWith(prefix) || !TEMP.test(name)) continue;
    const path = join(dir, name);
    try {
      const st = lstatSync(path);
      if (!st.isFile() || (uid !== undefined && st.uid !== uid) || nowMs - st.mtimeMs < olderThanMs) continue;
      unlinkSync(path);
      removed++;
    } catch {
      // gone already, or not ours to remove
    }
  }
  return removed;
}

/** Once a session: removes temp files that writers killed mid-write left in the state directories. */
export function sweepStateTemps(env: Env, root: string, nowMs: number): void {
  // Never through a symlinked state directory: the files there are not ours to remove.
  const { state, sessionsState, monitor, respawn, gitStart, records, events } = STATE_DIRS;
  for (const dir of [state, sessionsState, monitor, respawn, gitStart, records, events, ""])
    if (realDirsUnder(root, dir)) sweepStaleTemps(join(root, dir), nowMs);
  const user = userLayout(env);
  if (!user.missing && realDirsUnder(user.dir, INDEX_DIR)) sweepStaleTemps(user.index, nowMs);
  // a `ctx trust` killed while it wrote its record
  if (!user.missing && realDirsUnder(user.dir, "trust")) sweepStaleTemps(user.trust, nowMs);
  sweepStaleTemps(user.tmp, nowMs, 10 * 60_000, ".claude-ctx-");
}

// --- internal ---
