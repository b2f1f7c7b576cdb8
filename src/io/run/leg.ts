/** Running one `ctx run` leg: the real `claude -p`, its stdout collected, its stderr passed on. */
import type { Env } from "../../core/deps.ts";

/** How a leg's process ended. */
export interface LegProcess {
  code: number | null;
  stdout: string;
  /** It was still running at the run's deadline and was ended. */
  timedOut: boolean;
}

/**
 * Runs `argv` in `cwd` with `env` until it exits or `timeoutMs` passes (then SIGTERM, and SIGKILL
 * ten seconds later). Its stderr goes to ctx's stderr; SIGINT and SIGTERM sent to ctx are passed on.
 */
export async function runLeg(argv: string[], cwd: string, env: Env, timeoutMs: number): Promise<LegProcess> {
  const proc = Bun.spawn(argv, {
    cwd,
    env: env as Record<string, string>,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "inherit",
  });
  let timedOut = false;
  let kill: ReturnType<typeof setTimeout> | undefined;
  const timer = setTimeout(
    () => {
      timedOut = true;
      proc.kill("SIGTERM");
      kill = setTimeout(() => proc.kill("SIGKILL"), 10_000);
    },
    Math.max(0, timeoutMs),
  );
  const forward = (sig: NodeJS.Signals) => () => proc.kill(sig);
  const onInt = forward("SIGINT");
  const onTerm = forward("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  try {
    const [stdout, code] = await Promise.all([new Response(proc.stdout).text(), proc.exited]);
    return { code: proc.signalCode ? null : code, stdout, timedOut };
  } finally {
    clearTimeout(timer);
    if (kill) clearTimeout(kill);
    process.off("SIGINT", onInt);
    process.off("SIGTERM", onTerm);
  }
}

/** Waits `ms` (a usage limit's wait), or until SIGINT or SIGTERM; false when a signal cut it short. */
export async function waitOut(ms: number): Promise<boolean> {
  let stop: () => void = () => {};
  const signalled = new Promise<false>((resolve) => {
    stop = () => resolve(false);
  });
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      new Promise<true>((resolve) => {
        timer = setTimeout(() => resolve(true), ms);
      }),
      signalled,
    ]);
  } finally {
    if (timer) clearTimeout(timer);
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}
