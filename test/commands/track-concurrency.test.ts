import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

const FIXTURE = join(import.meta.dir, "..", "fixtures", "transcripts", "track-basic.jsonl");
let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
beforeEach(() => {
  ({ t, env, project } = projectSandbox());
});
afterEach(() => t.cleanup());

const hook = (sid: string, i: number) =>
  JSON.stringify({
    session_id: sid,
    transcript_path: FIXTURE,
    cwd: project,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: `echo ${i}` },
    tool_use_id: `toolu_${i}`,
  });

/** Every file below `dir`, recursively. */
function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });
}

test("ctx track: 32 simultaneous PostToolUse events count exactly 32 and leave a valid state", async () => {
  const runs = await Promise.all(
    Array.from({ length: 32 }, (_, i) => runCtx(["track"], { stdin: hook("s1", i), env, timeoutMs: 60_000 })),
  );
  expect(runs.map((r) => r.code)).toEqual(Array(32).fill(0));
  const s = JSON.parse(readFileSync(join(project, ".ctx", "state", "sessions", "s1.json"), "utf8"));
  expect(s.tool_calls).toBe(32);
  expect(s.models["claude-sonnet-4-5"].requests).toBe(4);
  const ledger = JSON.parse(readFileSync(join(project, ".ctx", "token-ledger.json"), "utf8"));
  expect(ledger.tasks["chain-s1"].requests).toBe(4); // the chain's task id
  // The session is past auto-pause: every call is in the action log exactly once.
  const log = readFileSync(join(project, ".ctx", "sessions", "ACTIVE-PAUSE-s1.jsonl"), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));
  expect(
    log
      .filter((e) => e.type === "tool_call")
      .map((e) => e.data.tool_use_id)
      .sort(),
  ).toEqual(Array.from({ length: 32 }, (_, i) => `toolu_${i}`).sort());
}, 90_000);

test("ctx track: kill -9 in the middle of writes leaves every state file parseable", async () => {
  // Kill within the time one run takes on this machine now, so the kills land in the writes however
  // loaded the machine is (a fixed 5-65 ms killed every run before start-up on a busy machine).
  const started = performance.now();
  await runCtx(["track"], { stdin: hook("warmup", 0), env, timeoutMs: 30_000 });
  const runMs = Math.max(60, performance.now() - started);
  for (let round = 0; round < 4; round++) {
    const procs = Array.from({ length: 12 }, (_, i) => {
      const p = Bun.spawn([CTX_BIN, "track"], {
        stdin: new Blob([hook(`k${i % 3}`, round * 100 + i)]),
        env,
        stdout: "ignore",
        stderr: "ignore",
      });
      setTimeout(() => p.kill(9), 5 + Math.floor(Math.random() * runMs * 1.5));
      return p;
    });
    await Promise.all(procs.map((p) => p.exited));
  }
  const files = [...walk(join(project, ".ctx")), ...walk(join(env.XDG_STATE_HOME!, "ctx"))];
  const json = files.filter((f) => f.endsWith(".json"));
  expect(json.length).toBeGreaterThan(0);
  for (const f of json) expect(() => JSON.parse(readFileSync(f, "utf8"))).not.toThrow();
  for (const f of files.filter((f) => f.endsWith(".jsonl"))) {
    for (const line of readFileSync(f, "utf8").split("\n").filter(Boolean))
      expect(() => JSON.parse(line)).not.toThrow();
  }
  expect(files.filter((f) => f.includes(".corrupt-"))).toEqual([]);
  // Locks left by killed holders are taken over: the next event still counts.
  const before = json.some((f) => f.endsWith("k0.json"))
    ? JSON.parse(readFileSync(join(project, ".ctx", "state", "sessions", "k0.json"), "utf8")).tool_calls
    : 0;
  const r = await runCtx(["track"], { stdin: hook("k0", 999), env, timeoutMs: 30_000 });
  expect(r.code).toBe(0);
  expect(JSON.parse(readFileSync(join(project, ".ctx", "state", "sessions", "k0.json"), "utf8")).tool_calls).toBe(
    before + 1,
  );
}, 90_000);
