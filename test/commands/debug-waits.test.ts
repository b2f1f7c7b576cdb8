import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sleepSyncCounted, waitedMs } from "../../src/io/fs/wait.ts";
import { countedWaits, runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ t, env, project } = projectSandbox());
});
afterEach(() => t.cleanup());

test("the count is what ctx slept on purpose", () => {
  const before = waitedMs();
  sleepSyncCounted(3);
  sleepSyncCounted(4);
  expect(waitedMs() - before).toBe(7);
});

test("CTX_DEBUG=waits: a hook prints its done line and nothing else; a held lock shows as slept time", async () => {
  const hook = JSON.stringify({
    session_id: "s1",
    transcript_path: join(t.dir, "none.jsonl"),
    cwd: project,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_use_id: "toolu_1",
  });
  const free = await runCtx(["track"], { stdin: hook, env: { ...env, CTX_DEBUG: "waits" } });
  expect(free.code).toBe(0);
  expect(free.stderr).toMatch(/^ctx track: done in \d+ ms \(cpu \d+ ms, waited 0 ms, stdin \d+ ms\)\n$/);
  // at 70 % the monitor warns under its debounce lock; a live holder (this test's pid) keeps that lock, so the
  // monitor backs off until its lock timeout
  writeFileSync(
    join(env.TMPDIR!, "claude-ctx-s1.json"),
    JSON.stringify({
      session_id: "s1",
      used_pct: 70,
      timestamp: Math.floor(Date.now() / 1000),
      used_tokens: 140000,
      context_window_size: 200000,
    }),
  );
  const lock = join(project, ".ctx", "state", "monitor", "s1.json.lock");
  mkdirSync(join(project, ".ctx", "state", "monitor"), { recursive: true });
  writeFileSync(lock, `${process.pid} ${Date.now()} held-by-the-test -`);
  const held = await runCtx(["monitor"], { stdin: hook, env, countWaits: true });
  expect(held.code).toBe(0);
  expect(held.waited!.sleptMs).toBeGreaterThan(100);
  expect(countedWaits("ctx x: done in 5 ms (cpu 1 ms, waited 2 ms, stdin 3 ms)\nrest\n")).toEqual({
    waited: { sleptMs: 2, stdinMs: 3 },
    stderr: "rest\n",
  });
}, 20_000);

test("CTX_DEBUG=waits works for a typed command too: ctx status takes no lock", async () => {
  const r = await runCtx(["status", "--json"], { env, cwd: project, countWaits: true });
  expect({ code: r.code, slept: r.waited!.sleptMs }).toEqual({ code: 0, slept: 0 });
});
