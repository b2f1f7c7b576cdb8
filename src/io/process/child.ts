/** Running a child process to its end with a timeout, and the argv that runs this same ctx again (the respawn supervisor's children). */

type Env = Record<string, string | undefined>;

/** How to run this very ctx: the compiled binary, or bun with src/main.ts. */
export function selfCommand(): string[] {
  const script = process.argv[1];
  // A binary replaced while we run shows as "<path> (deleted)": run the new one at that path.
  const exec = process.execPath.replace(/ \(deleted\)$/, "");
  return script && /\.[cm]?[jt]s$/.test(script) ? [exec, script] : [exec];
}

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
