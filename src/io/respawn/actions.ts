/** The slow actions of the supervisor: `ctx finalize`, the hand-over file, and the AI idle check. */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { layout, STATE_DIRS } from "../../core/layout.ts";
import { ensureDirUnder, writeJsonAtomic } from "../fs/fsx.ts";
import { stripAnsi } from "../../core/screen.ts";

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

/** Writes `<root>/state/respawn-pending.json` so the next SessionStart injects `summaryPath` (issue 4's hand-over). */
export function writePending(root: string, summaryPath: string, nowMs: number): void {
  ensureDirUnder(root, STATE_DIRS.state);
  writeJsonAtomic(layout(root).respawnPending, {
    version: 1,
    summary_path: summaryPath,
    created_at: new Date(nowMs).toISOString(),
    consumed_by: null,
    consumed_at: null,
  });
}

/** The question put to the model by the AI idle check. */
export function aiCheckPrompt(screen: string): string {
  const tail = stripAnsi(screen).slice(-16_000);
  return `Below is the current screen of a Claude Code terminal session. Is the assistant still WORKING (a spinner, "esc to interrupt", a tool running) or IDLE (finished, waiting at the empty prompt for the user)? Answer with exactly one word: IDLE or WORKING.\n\n<screen>\n${tail}\n</screen>`;
}

/** Reads the verdict from the model's answer: `idle`, `working`, or `error` when it says neither. */
export function parseVerdict(text: string): "idle" | "working" | "error" {
  const up = text.toUpperCase();
  const idle = /\bIDLE\b/.test(up);
  const working = /\bWORKING\b/.test(up);
  if (idle === working) return "error";
  return idle ? "idle" : "working";
}

/** Runs the AI idle check with `claude -p` on the screen. */
export async function runAiCheck(o: {
  claude: string;
  env: Env;
  screen: string;
  timeoutMs: number;
}): Promise<{ verdict: "idle" | "working" | "error"; detail?: string }> {
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
