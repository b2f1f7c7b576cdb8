import { existsSync } from "node:fs";
import { join } from "node:path";

/** The compiled binary the tests run (built by `npm test` before bun test). */
export const CTX_BIN = join(import.meta.dir, "..", "..", "dist", "ctx");

/** The outcome of one ctx run. */
export interface CtxRun {
  code: number;
  stdout: string;
  stderr: string;
  /**
   * With `countWaits`: the milliseconds the hook slept on purpose (lock back-off, transcript waits) and
   * waited for stdin, as ctx itself counted them (`CTX_DEBUG=waits`; its line is taken out of `stderr`).
   */
  waited?: { sleptMs: number; stdinMs: number };
}

const DONE_LINE = /^ctx [a-z-]+: done in \d+ ms \(cpu \d+ ms, waited (\d+) ms, stdin (\d+) ms\)\n/m;

/** Splits ctx's "done" line (CTX_DEBUG=waits) off a hook's stderr: what it counted, and the rest. */
export function countedWaits(stderr: string): { waited?: CtxRun["waited"]; stderr: string } {
  const m = DONE_LINE.exec(stderr);
  if (!m) return { stderr };
  return { waited: { sleptMs: Number(m[1]), stdinMs: Number(m[2]) }, stderr: stderr.replace(DONE_LINE, "") };
}

/** Runs the compiled ctx with `args`, `stdin` and `env`; fails the test early if the binary is missing. */
export async function runCtx(
  args: string[],
  opts: {
    stdin?: string | Uint8Array;
    env: Record<string, string>;
    cwd?: string;
    timeoutMs?: number;
    /** Run with CTX_DEBUG=waits and return what the hook counted as `waited`. */
    countWaits?: boolean;
  },
): Promise<CtxRun> {
  if (!existsSync(CTX_BIN)) throw new Error(`${CTX_BIN} is missing: run 'bun build.ts' first`);
  const proc = Bun.spawn([CTX_BIN, ...args], {
    stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
    stdout: "pipe",
    stderr: "pipe",
    env: opts.countWaits ? { ...opts.env, CTX_DEBUG: "waits" } : opts.env,
    cwd: opts.cwd,
    timeout: opts.timeoutMs ?? 20_000,
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  if (!opts.countWaits) return { code, stdout, stderr };
  const counted = countedWaits(stderr);
  if (!counted.waited) throw new Error(`ctx ${args.join(" ")} reported no waits; stderr: ${stderr}`);
  return { code, stdout, stderr: counted.stderr, waited: counted.waited };
}
