/** The slow actions of the supervisor, run as child processes: `ctx finalize` and the AI idle check (`claude -p`). */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aiCheckPrompt } from "../../core/respawn/ai-check.ts";
import { type ChildResult, runChild, selfCommand } from "../process/child.ts";

type Env = Record<string, string | undefined>;

/** Runs `ctx finalize` for the session (its last line of output is the summary's path: `finalizeDone` reads it). */
export function runFinalize(o: {
  project: string;
  env: Env;
  sessionId: string | null;
  timeoutMs: number;
}): Promise<ChildResult> {
  const args = ["finalize", "--project", o.project, ...(o.sessionId ? ["--session", o.sessionId] : [])];
  return runChild([...selfCommand(), ...args], {
    cwd: o.project,
    env: { ...o.env, CLAUDE_PROJECT_DIR: o.project },
    timeoutMs: o.timeoutMs,
  });
}

/** Runs the AI idle check, `claude -p` about the screen (`aiVerdict` reads the answer). */
export async function runAiCheck(o: {
  claude: string;
  env: Env;
  screen: string;
  timeoutMs: number;
}): Promise<ChildResult> {
  // Run outside the project and without CTX_DIR, so the hooks never record the check as the project's newest session.
  const cwd = mkdtempSync(join(tmpdir(), "ctx-ai-check-"));
  const { CTX_DIR: _root, CLAUDE_PROJECT_DIR: _project, ...env } = o.env;
  try {
    const argv = [o.claude, "-p", aiCheckPrompt(o.screen), "--output-format", "text"];
    return await runChild(argv, { cwd, env, timeoutMs: o.timeoutMs });
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
