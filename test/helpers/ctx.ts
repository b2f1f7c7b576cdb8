import { existsSync } from "node:fs";
import { join } from "node:path";

/** The compiled binary the tests run (built by `npm test` before bun test). */
export const CTX_BIN = join(import.meta.dir, "..", "..", "dist", "ctx");

/** The outcome of one ctx run. */
export interface CtxRun {
  code: number;
  stdout: string;
  stderr: string;
  ms: number;
}

/** Runs the compiled ctx with `args`, `stdin` and `env`; fails the test early if the binary is missing. */
export async function runCtx(
  args: string[],
  opts: { stdin?: string | Uint8Array; env: Record<string, string>; cwd?: string; timeoutMs?: number },
): Promise<CtxRun> {
  if (!existsSync(CTX_BIN)) throw new Error(`${CTX_BIN} is missing: run 'bun build.ts' first`);
  const started = performance.now();
  const proc = Bun.spawn([CTX_BIN, ...args], {
    stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
    stdout: "pipe",
    stderr: "pipe",
    env: opts.env,
    cwd: opts.cwd,
    timeout: opts.timeoutMs ?? 20_000,
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(proc.stdout).text(),
    new Response(proc.stderr).text(),
    proc.exited,
  ]);
  return { code, stdout, stderr, ms: performance.now() - started };
}
