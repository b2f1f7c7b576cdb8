/** The slow actions of the supervisor: `ctx finalize` and the AI idle check. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aiCheckPrompt, parseVerdict, type Verdict } from "../../core/respawn/ai-check.ts";

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

/**
 * Runs `ctx finalize` for the session and returns the summary path it printed.
 * Throws with the reason when it fails.
 */
export async function runFinalize(o: {
  project: string;
  env: Env;
  sessionId: string | null;
  timeoutMs: number;
}): Promise<string> {
  const args = ["finalize", "--project", o.project, ...(o.sessionId ? ["--session", o.sessionId] : [])];
  const r = await runChild([...selfCommand(), ...args], {
    cwd: o.project,
    env: { ...o.env, CLAUDE_PROJECT_DIR: o.project },
    timeoutMs: o.timeoutMs,
  });
  const path = r.stdout.trim().split("\n").pop()?.trim() ?? "";
  if (r.timedOut) throw new Error("timed out");
  if (r.code !== 0 || !path.startsWith("/"))
    throw new Error(`exit ${r.code}: ${r.stderr.trim().split("\n").pop() ?? ""}`.slice(0, 300));
  return path;
}

/** Runs the AI idle check with `claude -p` on the screen. */
export async function runAiCheck(o: {
  claude: string;
  env: Env;
  screen: string;
  timeoutMs: number;
}): Promise<{ verdict: Verdict; detail?: string }> {
  // Run outside the project and without CTX_DIR, so the hooks never record the check as the project's newest session.
  const cwd = mkdtempSync(join(tmpdir(), "ctx-ai-check-"));
  const { CTX_DIR: _root, CLAUDE_PROJECT_DIR: _project, ...env } = o.env;
  let r: ChildResult;
  try {
    r = await runChild([o.claude, "-p", aiCheckPrompt(o.screen), "--output-format", "text"], {
      cwd,
      env,
      timeoutMs: o.timeoutMs,
    });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
  if (r.timedOut) return { verdict: "error", detail: "timeout" };
  if (r.code !== 0) return { verdict: "error", detail: `exit ${r.code}` };
  const verdict = parseVerdict(r.stdout);
  return verdict === "error" ? { verdict, detail: `no verdict in: ${r.stdout.trim().slice(0, 80)}` } : { verdict };
}
