import { existsSync, mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { tmuxClient } from "../../src/io/respawn/tmux.ts";
import { isolatedEnv, tempDir } from "./tmp.ts";

/** An idle Claude Code screen as the client draws it after a turn (printf format). */
export const IDLE_SCREEN = "✻ Baked for 3s\\n\\n────────\\n❯ \\n────────\\n  ? for shortcuts\\n";

/** A temp dir with an isolated env whose tmux server is private (TMUX_TMPDIR inside it). */
export interface TmuxBox {
  t: { dir: string; cleanup: () => void };
  env: Record<string, string>;
  /** Kills the private tmux server and removes the dir. */
  cleanup: () => Promise<void>;
}

/** Creates a TmuxBox: the user's tmux server is never touched. */
export function tmuxBox(): TmuxBox {
  const t = tempDir();
  const env = isolatedEnv(t.dir, { TMUX_TMPDIR: join(t.dir, "tmux") });
  for (const d of [env.TMPDIR!, env.TMUX_TMPDIR!]) mkdirSync(d, { recursive: true });
  return {
    t,
    env,
    async cleanup() {
      await tmuxClient(env)
        .run(["kill-server"])
        .catch(() => {});
      t.cleanup();
    },
  };
}

/**
 * A stand-in for Claude Code in a pane: `sleep` run through a link named `claude`, so /proc shows
 * the command `claude` (what the supervisor checks before every keystroke); created in `dir`/bin.
 */
export function fakeClaudeBin(dir: string): string {
  const bin = join(dir, "bin", "claude");
  if (!existsSync(bin)) {
    mkdirSync(join(dir, "bin"), { recursive: true });
    symlinkSync(Bun.which("sleep") ?? "/bin/sleep", bin);
  }
  return bin;
}

/** Starts a pane where the stand-in client shows the idle screen and waits; returns its pane id. */
export function idlePane(box: TmuxBox, name: string, cwd: string): Promise<string> {
  const claude = fakeClaudeBin(box.t.dir);
  return tmuxClient(box.env).newSession(
    name,
    cwd,
    ["sh", "-c", `printf '${IDLE_SCREEN}'; exec '${claude}' 600`],
    box.env,
  );
}
