/**
 * The slow actions of the supervisor, run as child processes: `ctx finalize`
 * and the AI idle check (`claude -p`). Each resolves with the event the
 * machine gets back (`core/respawn/outcomes.ts` reads what the child said).
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aiCheckPrompt } from "../../core/respawn/ai-check.ts";
import { aiVerdict, finalizeDone } from "../../core/respawn/outcomes.ts";
import type { RespawnEvent } from "../../core/respawn/types.ts";
import { runChild, selfCommand } from "../process/child.ts";

type Env = Record<string, string | undefined>;

/** Runs `ctx finalize` for the session: `finalize_done`, with the summary's path or why it failed. */
export async function runFinalize(o: {
  project: string;
  env: Env;
  sessionId: string | null;
  timeoutMs: number;
}): Promise<RespawnEvent> {
  const args = ["finalize", "--project", o.project, ...(o.sessionId ? ["--session", o.sessionId] : [])];
  try {
    const r = await runChild([...selfCommand(), ...args], {
      cwd: o.project,
      env: { ...o.env, CLAUDE_PROJECT_DIR: o.project },
      timeoutMs: o.timeoutMs,
    });
    return finalizeDone(r);
  } catch (err) {
    return { type: "finalize_done", ok: false, detail: (err as Error).message };
  }
}

/** Runs the AI idle check, `claude -p` about the screen: `ai_verdict`. */
export async function runAiCheck(o: {
  claude: string;
  env: Env;
  screen: string;
  timeoutMs: number;
}): Promise<RespawnEvent> {
  // Run outside the project and without CTX_DIR, so the hooks never record the check as the project's newest session.
  const cwd = mkdtempSync(join(tmpdir(), "ctx-ai-check-"));
  const { CTX_DIR: _root, CLAUDE_PROJECT_DIR: _project, ...env } = o.env;
  try {
    const argv = [o.claude, "-p", aiCheckPrompt(o.screen), "--output-format", "text"];
    return aiVerdict(await runChild(argv, { cwd, env, timeoutMs: o.timeoutMs }));
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
}
