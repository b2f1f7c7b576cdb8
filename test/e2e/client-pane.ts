/** The interactive Claude Code client in a tmux pane of its sandbox, ready to be typed into. */
import { ALLOWED_TOOLS, CLAUDE_BIN, type Sandbox, TEST_MODEL } from "./claude.ts";
import { startTmux, type TmuxSession } from "./tmux.ts";

/**
 * Starts `claude --model <test model> --allowedTools …` in the sandbox's project (in the tmux
 * window `name`, when given) and waits for its input box; the pane is killed when that wait fails.
 */
export async function startClient(sandbox: Sandbox, name?: string): Promise<TmuxSession> {
  const pane = await startTmux({
    dir: sandbox.tmp,
    ...(name ? { name } : {}),
    command: [CLAUDE_BIN, "--model", TEST_MODEL, "--allowedTools", ...ALLOWED_TOOLS],
    env: sandbox.env,
    cwd: sandbox.project,
  });
  try {
    await pane.waitFor(/for shortcuts|❯/, 30_000);
    return pane;
  } catch (err) {
    await pane.kill().catch(() => {});
    throw err;
  }
}
