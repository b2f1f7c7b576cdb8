/**
 * Resolving a session's label (core/label.ts): asks tmux about the pane the client runs in
 * (`TMUX_PANE`) once per session; the status line keeps the answer in the bridge file, so later
 * runs read it instead of starting tmux again.
 */
import type { Env } from "../../core/deps.ts";
import { isPaneId, sessionLabel, TMUX_LABEL_FORMAT, tmuxLabel } from "../../core/label.ts";

/** How long tmux may take to answer before the session goes without its window's name. */
const TMUX_TIMEOUT_MS = 500;

/** The session's label: its tmux window's when it runs in tmux, else the client's name for it, else a short id. */
export async function resolveLabel(env: Env, sessionId: string, sessionName?: unknown): Promise<string> {
  return sessionLabel(sessionId, await askTmux(env), sessionName);
}

// --- internal ---

async function askTmux(env: Env): Promise<string | undefined> {
  const pane = env.TMUX_PANE;
  if (!isPaneId(pane) || !env.TMUX) return undefined;
  try {
    const { runChild } = await import("../process/child.ts");
    const r = await runChild(["tmux", "display-message", "-p", "-t", pane, TMUX_LABEL_FORMAT], {
      cwd: "/",
      env,
      timeoutMs: TMUX_TIMEOUT_MS,
    });
    return r.code === 0 && !r.timedOut ? tmuxLabel(r.stdout) : undefined;
  } catch {
    return undefined;
  }
}
