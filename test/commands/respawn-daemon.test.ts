/**
 * `ctx respawn --daemon` and the one-supervisor rule, with the compiled ctx, a
 * private tmux server (TMUX_TMPDIR) and a stand-in for claude that draws an
 * idle screen: the daemon reports a supervisor that dies at once, and a second
 * supervisor on the same name or pane is refused.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { tmuxClient } from "../../src/io/respawn/tmux.ts";
import { runCtx } from "../helpers/ctx.ts";
import { fakeClaudeBin } from "../helpers/tmux-pane.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

let sb: ProjectSandbox;
let env: Record<string, string>;
beforeEach(() => {
  sb = projectSandbox();
  const fake = join(sb.t.dir, "fake-claude");
  // It ends as a process named claude (the supervisor types only into Claude Code).
  const claude = fakeClaudeBin(sb.t.dir);
  writeFileSync(fake, `#!/bin/sh\nprintf '✻ Baked for 3s\\n\\n────────\\n❯ \\n────────\\n'\nexec '${claude}' 600\n`);
  chmodSync(fake, 0o755);
  env = { ...sb.env, TMUX_TMPDIR: join(sb.t.dir, "tmux"), CTX_CLAUDE: fake, CTX_RESPAWN_POLL_MS: "200" };
  mkdirSync(env.TMUX_TMPDIR!, { recursive: true });
});
afterEach(async () => {
  await runCtx(["respawn", "stop"], { env, cwd: sb.project }).catch(() => {});
  await tmuxClient(env)
    .run(["kill-server"])
    .catch(() => {});
  sb.t.cleanup();
});

const ctx = (...args: string[]) => runCtx(["respawn", ...args], { env, cwd: sb.project });

test("--daemon: a supervisor that dies at once (claude missing) is an error with its log's message, not a success", async () => {
  const r = await runCtx(["respawn", "start", "--name", "w1", "--daemon"], {
    env: { ...env, CTX_CLAUDE: join(sb.t.dir, "no-such-claude") },
    cwd: sb.project,
  });
  expect(r.code).toBe(1);
  expect(r.stdout).toBe("");
  expect(r.stderr).toContain("no-such-claude is not an executable");
  expect(r.stderr).toContain("exited at once");
});

test("--daemon: the tmux session already exists: error from the log, exit 1", async () => {
  await tmuxClient(env).newSession("w1", sb.project, ["sleep", "600"], env);
  const r = await ctx("start", "--name", "w1", "--daemon");
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("a tmux session 'w1' already exists");
});

test("one supervisor per name and per pane: a second start, attach or foreground run is refused and says how to stop the first", async () => {
  const first = await ctx("start", "--name", "a1", "--daemon");
  expect(first.code).toBe(0);
  expect(first.stdout).toContain("supervising 'a1' in the background");
  expect(first.stdout).toContain("see the session with: tmux attach -t a1\n");
  const pane = (await tmuxClient(env).paneInfo("a1")).id;

  for (const args of [
    ["start", "--name", "a1", "--daemon"],
    ["attach", "--name", "a1", "--target", "a1"],
    ["attach", "--name", "a1", "--target", "a1", "--daemon"],
  ]) {
    const r = await ctx(...args);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("a supervisor named 'a1' is already running");
    expect(r.stderr).toContain("ctx respawn stop --name a1");
  }
  for (const args of [
    ["attach", "--name", "b2", "--target", "a1"],
    ["attach", "--target", pane, "--daemon"],
  ]) {
    const r = await ctx(...args);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`pane ${pane}`);
    expect(r.stderr).toContain("already supervised by 'a1'");
    expect(r.stderr).toContain("ctx respawn stop --name a1");
  }

  // stop catches the one supervisor; then the pane can be supervised again under any name.
  const stop = await ctx("stop", "--name", "a1");
  expect(stop.stdout).toBe(
    `stopped a1: supervision only; the client keeps running in tmux pane ${pane}\n` +
      `  see it with 'tmux attach -t ${pane}'; end it with /exit there, or 'tmux kill-pane -t ${pane}'\n`,
  );
  const again = await ctx("attach", "--name", "b2", "--target", pane, "--daemon");
  expect(again.code).toBe(0);
  expect(again.stdout).toContain(`see the session with: tmux attach -t ${pane}\n`);
  expect((await ctx("stop")).stdout).toStartWith("stopped b2: supervision only; the client keeps running");
  expect((await ctx("stop")).code).toBe(1); // nothing left running
}, 30_000);
