/** Running a child process to its end with a timeout (the respawn supervisor's children). */
import type { Env } from "../../core/deps.ts";

/** The outcome of a child process run with a timeout. */
export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/** Runs `argv` with a timeout (SIGKILL when it passes), collecting its output. */
export async function runChild(
  argv: string[],
  opts: { cwd: string; env: Env; timeoutMs: number; stdin?: string },
): Promise<ChildResult> {
  const proc = Bun.spawn(argv, {
    cwd: opts.cwd,
    env: opts.env as Record<string, string>,
    stdin: opts.stdin !== undefined ? new TextEncoder().encode(opts.stdin) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    proc.kill("SIGKILL");
  }, opts.timeoutMs);
  try {
    const [stdout, stderr, code] = await Promise.all([
      new Response(proc.stdout).text(),
      new Response(proc.stderr).text(),
      proc.exited,
    ]);
    return { code, stdout, stderr, timedOut };
  } finally {
    clearTimeout(timer);
  }
}
