/** Running a child process to its end with a timeout (the respawn supervisor's children, the chained status line). */
import type { Env } from "../../core/deps.ts";

/** The outcome of a child process run with a timeout. */
export interface ChildResult {
  code: number | null;
  stdout: string;
  stderr: string;
  timedOut: boolean;
}

/**
 * Runs `argv` with a timeout (SIGKILL when it passes), collecting its output. With `group`, the child
 * runs in its own process group (a new session) and the whole group is killed at the timeout, so
 * a pipeline's other members (`sleep 30 | cat`) neither outlive it nor hold its output open.
 */
export async function runChild(
  argv: string[],
  opts: { cwd: string; env: Env; timeoutMs: number; stdin?: string; group?: boolean },
): Promise<ChildResult> {
  const proc = Bun.spawn(argv, {
    cwd: opts.cwd,
    env: opts.env as Record<string, string>,
    stdin: opts.stdin !== undefined ? new TextEncoder().encode(opts.stdin) : "ignore",
    stdout: "pipe",
    stderr: "pipe",
    ...(opts.group ? { detached: true } : {}),
  });
  let timedOut = false;
  let killed = () => {};
  const gone = new Promise<void>((resolve) => {
    killed = resolve;
  });
  const timer = setTimeout(() => {
    timedOut = true;
    killGroup(proc, opts.group === true);
    killed();
  }, opts.timeoutMs);
  try {
    const out = Promise.all([new Response(proc.stdout).text(), new Response(proc.stderr).text(), proc.exited]);
    // Once killed, the output is not waited for past a moment: a process that left the group keeps no one waiting.
    const late = gone.then(() => Bun.sleep(200)).then(() => ["", "", null] as const);
    const [stdout, stderr, code] = await Promise.race([out, late]);
    return { code, stdout, stderr, timedOut };
  } finally {
    clearTimeout(timer);
  }
}

// --- internal ---

function killGroup(proc: { pid: number; kill(signal?: number | NodeJS.Signals): void }, group: boolean): void {
  try {
    if (group) process.kill(-proc.pid, "SIGKILL");
    else proc.kill("SIGKILL");
  } catch {
    // gone already
  }
}
