/**
 * Issue 32, item 10: the status-line chain's timeout killed only the shell. With
 * `--chain 'sleep 3000 | cat'` the old code killed `sh`, then waited for its output pipe, which
 * `sleep` and `cat` held open: the status line hung until they ended, and they were left running.
 * Now the chain runs in its own process group and the whole group is killed at the timeout.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

let sb: ProjectSandbox;
beforeEach(() => {
  sb = projectSandbox({ CTX_STATUSLINE_CHAIN_TIMEOUT_MS: "300", NO_COLOR: "1" });
});
afterEach(() => sb.t.cleanup());

/** Processes whose command line holds `marker`. */
function running(marker: string): number[] {
  const out: number[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      if (readFileSync(`/proc/${name}/cmdline`, "utf8").split("\0").join(" ").includes(marker)) out.push(Number(name));
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

test("a chained pipeline that outlives the timeout is killed whole, and ctx's line is shown alone", async () => {
  const marker = `3000.${process.pid}${Date.now() % 1000}`;
  const payload = JSON.stringify({
    session_id: "s1",
    cwd: sb.project,
    model: { display_name: "Sonnet" },
    context_window: { context_window_size: 200_000, current_usage: { input_tokens: 1000 } },
  });
  const r = await runCtx(["statusline", "--chain", `sleep ${marker} | cat`], {
    env: sb.env,
    cwd: sb.project,
    stdin: payload,
  });
  expect(r.code).toBe(0);
  expect(r.stdout.trim()).not.toBe("");
  expect(r.stdout).not.toContain("\n\n");
  // Nothing of the chain is left: no sleep, no cat of this run (a moment for the kernel to reap them).
  let left = running(`sleep ${marker}`);
  for (let i = 0; i < 20 && left.length > 0; i++) {
    await Bun.sleep(50);
    left = running(`sleep ${marker}`);
  }
  for (const pid of left) process.kill(pid, "SIGKILL"); // the old code's orphans: cleaned up, then reported
  expect(left).toEqual([]);
}, 20_000);

test("a chain that ends in time still shows beside ctx's line", async () => {
  const r = await runCtx(["statusline", "--chain", "printf 'mine-%s' ok | cat"], {
    env: sb.env,
    cwd: sb.project,
    stdin: JSON.stringify({ session_id: "s1", cwd: sb.project }),
  });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("mine-ok");
});
