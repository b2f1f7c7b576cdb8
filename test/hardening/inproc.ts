/**
 * Runs ctx in-process through `main()` with injected deps, the way the
 * compiled binary does, so thousands of fuzz inputs cost milliseconds each.
 * stdin bytes are decoded exactly like src/io/process/stdin.ts does (UTF-8, capped).
 */
import { join } from "node:path";
import { main } from "../../src/main.ts";
import type { Deps } from "../../src/core/deps.ts";
import { waitedMs } from "../../src/io/fs/wait.ts";

/** The outcome of one in-process run. */
export interface InprocRun {
  code: number;
  stdout: string;
  stderr: string;
  /** CPU time the run used (user + system, process.cpuUsage), in ms: load on the machine does not change it much. */
  cpuMs: number;
  /** What ctx itself counted as slept (lock back-off, transcript waits), in ms. */
  sleptMs: number;
  /** An exception that escaped main() itself (main must never throw). */
  thrown?: unknown;
}

/** Options of one run. */
export interface InprocOptions {
  env: Record<string, string | undefined>;
  cwd: string;
  stdin: Uint8Array;
  /** The clock (default Date.now). */
  now?: () => number;
}

/** ctx from source: what a background `ctx finalize` started by an in-process hook runs. */
const MAIN = join(import.meta.dir, "..", "..", "src", "main.ts");

/**
 * Runs `ctx <argv>` in-process. While it runs, `process.argv[1]` is ctx's
 * main.ts, so a hook that starts `ctx finalize` in the background starts the
 * real one (src/io/process/proc.ts selfCommand), not `bun test`.
 */
export async function runInproc(argv: string[], opts: InprocOptions): Promise<InprocRun> {
  let stdout = "";
  let stderr = "";
  const deps: Deps = {
    env: opts.env,
    now: opts.now ?? Date.now,
    cwd: opts.cwd,
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    readStdin: async ({ maxBytes }) => {
      const n = Math.min(opts.stdin.byteLength, maxBytes);
      return {
        text: Buffer.from(opts.stdin.buffer, opts.stdin.byteOffset, n).toString("utf8"),
        truncated: n < opts.stdin.byteLength,
      };
    },
  };
  const cpu = process.cpuUsage();
  const slept = waitedMs();
  let code = -1;
  let thrown: unknown;
  const script = process.argv[1];
  process.argv[1] = MAIN;
  try {
    code = await main(argv, deps);
  } catch (err) {
    thrown = err;
  } finally {
    process.argv[1] = script!;
  }
  const used = process.cpuUsage(cpu);
  return { code, stdout, stderr, cpuMs: (used.user + used.system) / 1000, sleptMs: waitedMs() - slept, thrown };
}
