/** The files `ctx run`'s own stdout and stderr go to (`ctx run --json > ctx-run.json 2> ctx-run.err`). */
import { readlinkSync, statSync } from "node:fs";

/**
 * The regular files this process's stdout and stderr are redirected to (`/proc/self/fd/1` and `/2`),
 * absolute; none for a terminal or a pipe. A leg's summary leaves them out of "files changed by
 * commands": they are the workflow's, not the agent's work.
 */
export function ownOutputFiles(procRoot = "/proc"): string[] {
  const out: string[] = [];
  for (const fd of [1, 2]) {
    try {
      const target = readlinkSync(`${procRoot}/self/fd/${fd}`);
      if (target.startsWith("/") && statSync(target).isFile() && !out.includes(target)) out.push(target);
    } catch {
      // closed, a pipe or a socket: nothing of ours on disk
    }
  }
  return out;
}
