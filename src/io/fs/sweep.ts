import { lstatSync, readdirSync, unlinkSync } from "node:fs";
import { join } from "../../core/pathx.ts";

/** The temp files writeFileAtomic() creates: `.<name>.<pid>.<random>.tmp`. */
const TEMP = /^\..+\.\d+\.[a-z0-9]+\.tmp$/;

/**
 * Removes temp files that a killed writer left behind in `dir` (a kill -9
 * between create and rename): only ours by name, owned by us, regular files,
 * and older than `olderThanMs`, so a write in progress is never touched.
 * Returns how many were removed; errors are ignored.
 */
export function sweepStaleTemps(dir: string, nowMs: number, olderThanMs = 10 * 60_000, prefix = "."): number {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return 0;
  }
  let removed = 0;
  const uid = typeof process.getuid === "function" ? process.getuid() : undefined;
  for (const name of names) {
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
