/** `ctx monitor` called by ctx's Claude Code mod: the client's figure is the reading, and the settings hooks defer to it. */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";
import { assistantLine } from "../helpers/transcript.ts";

let t: ProjectSandbox["t"];
let env: Record<string, string>;
let project: string;
let transcript: string;
beforeEach(() => {
  ({ t, env, project } = projectSandbox());
  transcript = join(t.dir, "t.jsonl");
  writeFileSync(transcript, `${assistantLine(20_000)}\n`); // what a settings hook would read: 10 %
});
afterEach(() => t.cleanup());

function payload(event: string, tokens?: number, over: Record<string, unknown> = {}, window = 200_000): string {
  return JSON.stringify({
    session_id: "s1",
    transcript_path: transcript,
    cwd: project,
    hook_event_name: event,
    tool_name: "Bash",
    tool_use_id: "toolu_mod00001",
    ...(tokens === undefined ? {} : { ctx_mod: { v: 1, tokens, window, model: "claude-sonnet-4-5" } }),
    ...over,
  });
}
async function call(cmd: string, input: string) {
  const r = await runCtx([cmd], { stdin: input, env });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe("");
  return r.stdout === "" ? undefined : JSON.parse(r.stdout);
}

test("on a 1M window the figure and level are of the 200k budget, as the status line has them", async () => {
  const step = (tokens: number) => call("monitor", payload("ModStep", tokens, {}, 1_000_000));
  expect(await step(151_050)).toEqual({ ctx_mod: { used_pct: 76, level: "critical" } });
  expect(await step(132_000)).toEqual({ ctx_mod: { used_pct: 66, level: "warning" } });
  expect(await step(100_000)).toEqual({ ctx_mod: { used_pct: 50, level: "ok" } });
});

test("a step records the client's figure and answers it with its level; no warning, no debounce step", async () => {
  expect(await call("monitor", payload("ModStep", 134_000))).toEqual({ ctx_mod: { used_pct: 67, level: "warning" } });
  const rec = JSON.parse(readFileSync(join(project, ".ctx", "state", "monitor", "s1.mod.json"), "utf8"));
  expect(rec).toMatchObject({ v: 1, used_tokens: 134_000, window: 200_000, used_pct: 67, model: "claude-sonnet-4-5" });
});

test("a tool call warns from the client's figure with the settings hook's ladder and debounce", async () => {
  const seen: string[] = [];
  for (let i = 0; i < 6; i++) {
    const out = await call("monitor", payload("PostToolUse", 134_000));
    expect(out.ctx_mod).toEqual({ used_pct: 67, level: "warning" });
    seen.push(out.hookSpecificOutput?.additionalContext.split(":")[0] ?? "-");
  }
  expect(seen).toEqual(["CONTEXT WARNING", "-", "-", "-", "-", "CONTEXT WARNING"]);
  // Escalation at once, from the figure alone (the transcript still says 10 %).
  const out = await call("monitor", payload("PostToolUse", 152_000));
  expect(out.hookSpecificOutput.additionalContext).toStartWith("CONTEXT CRITICAL: 76%");
});

test("once the mod reported, the settings hooks defer: monitor is silent, track takes the mod's figure", async () => {
  await call("monitor", payload("ModStep", 150_000));
  expect(await call("monitor", payload("PostToolUse"))).toBeUndefined();
  const tracked = await call("track", payload("PostToolUse"));
  expect(tracked.systemMessage).toStartWith("ctx: context 75% used (150k/200k tokens), CRITICAL");
  const state = JSON.parse(readFileSync(join(project, ".ctx", "state", "sessions", "s1.json"), "utf8"));
  expect(state).toMatchObject({ used_tokens: 150_000, used_pct: 75 });
  // Another session without a mod is read as always.
  expect(await call("monitor", payload("PostToolUse", undefined, { session_id: "s2" }))).toBeUndefined();
});

test("a payload whose figure is not one is read like a settings hook's", async () => {
  for (const bad of [{ v: 2, tokens: 1, window: 1 }, { v: 1, tokens: 1, window: 0 }, "x", { v: 1, window: 5 }])
    expect(await call("monitor", payload("PostToolUse", undefined, { ctx_mod: bad }))).toBeUndefined();
  expect(await call("monitor", payload("ModStep", undefined, { ctx_mod: { v: 1, window: 5 } }))).toBeUndefined();
});

test("in the client: a due cycle held at an idle turn is recorded once, with why, then the cycle runs", async () => {
  const inClient = { ...env, CTX_RESPAWN_IN_CLIENT: "1", CTX_RESPAWN_COMPACT_AT: "off", CTX_RESPAWN_RESTART_AT: "90" };
  const idle = async (subagentsRunning: number) => {
    const facts = { turnReason: "answer", draft: false, dialogOpen: false, queuedPrompt: false, subagentsRunning };
    const r = await runCtx(["monitor"], { stdin: payload("ModIdle", 184_000, { ctx_idle: facts }), env: inClient });
    expect(r.code).toBe(0);
    return JSON.parse(r.stdout);
  };
  const events = () => {
    const rec = JSON.parse(
      readFileSync(join(project, ".ctx", "state", "respawn", `client-${process.pid}.json`), "utf8"),
    );
    return rec.events.map((e: { event: string; detail?: string }) => `${e.event} ${e.detail ?? ""}`.trim());
  };
  expect(await idle(1)).toEqual({ ctx_cycle: null });
  expect(await idle(1)).toEqual({ ctx_cycle: null });
  expect(events()).toEqual(["hold 1 subagent(s) still running at 92%: the restart waits for the next idle turn"]);
  expect((await idle(0)).ctx_cycle).toMatchObject({ kind: "restart" });
  expect(events().map((e: string) => e.split(" ")[0])).toEqual(["hold", "cycle_start", "step"]);
});
