/**
 * The plugin `ctx install --opencode` writes, loaded as OpenCode loads it, with a stand-in for
 * OpenCode's SDK client and for ctx (a script that logs each call and answers what the test set):
 * which calls it makes to ctx at an idle, how it carries out a restart and a compaction summary, and
 * that outside the TUI or with unchanged tokens it does not ask. The real client: e2e/opencode-cycle.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openCodePlugin } from "../../src/core/agents/opencode-plugin.ts";
import { OPENCODE_QUIET_MS } from "../../src/core/agents/opencode-cycle.ts";
import { QUIET_IDLE } from "../helpers/idle.ts";
import { tempDir } from "../helpers/tmp.ts";

const S = "ses_0123456789abcdefABCDEF01";
const NEW = "ses_0123456789abcdefABCDEF02";
const LIMIT = { context: 60_000, output: 8_000 };
type Hooks = Record<string, (input: unknown, output?: unknown) => Promise<void>>;

let t: { dir: string; cleanup: () => void };
let argv1: string | undefined;
beforeEach(() => {
  t = tempDir();
  argv1 = process.argv[1];
});
afterEach(() => {
  process.argv[1] = argv1!;
  t.cleanup();
});

/** The plugin with a stand-in ctx answering `answers[event]`, loaded as in the TUI (`tui`) or not. */
async function load(answers: Record<string, unknown>, tui: boolean) {
  const log = join(t.dir, "calls.log");
  for (const [event, a] of Object.entries(answers)) writeFileSync(join(t.dir, `${event}.json`), JSON.stringify(a));
  const ctx = join(t.dir, "ctx");
  writeFileSync(
    ctx,
    `#!/bin/sh\nin=$(cat)\nprintf '%s\\n' "$in" >> '${log}'\nev=$(printf '%s' "$in" | sed -n 's/.*"hook_event_name":"\\([A-Za-z.]*\\)".*/\\1/p')\n[ -f '${t.dir}/'"$ev.json" ] && cat '${t.dir}/'"$ev.json"\nexit 0\n`,
  );
  chmodSync(ctx, 0o755);
  const file = join(t.dir, `ctx-${tui}.mjs`);
  writeFileSync(file, openCodePlugin.text(ctx));
  const sdk: unknown[] = [];
  let status: Record<string, unknown> = {};
  const client = {
    session: {
      status: async () => ({ data: status }),
      create: async () => (sdk.push("create"), { data: { id: NEW } }),
      promptAsync: async (a: unknown) => (sdk.push(["promptAsync", a]), { data: true }),
      summarize: async (a: unknown) => (sdk.push(["summarize", a]), { data: true }),
    },
    tui: { publish: async (a: unknown) => (sdk.push(["publish", a]), { data: true }) },
  };
  process.argv[1] = tui ? "/$bunfs/root/src/cli/tui/worker.js" : "/$bunfs/root/src/index.js";
  const mod = await import(file);
  const hooks: Hooks = await mod.CtxPlugin({ directory: t.dir, client });
  const calls = () =>
    readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
  const setStatus = (s: Record<string, unknown>) => {
    status = s;
  };
  return { hooks, sdk, calls, setStatus };
}

/** Polls until `ok()` holds (the test's own timeout bounds it). */
async function until(ok: () => boolean): Promise<void> {
  while (!ok()) await Bun.sleep(100);
}

/** A session that ran one step of `used` tokens and went idle. */
async function stepAndIdle(hooks: Hooks, used: number) {
  await hooks["chat.params"]!({
    sessionID: S,
    agent: "build",
    model: { id: "claude-sonnet-4-5", providerID: "anthropic", limit: LIMIT },
  });
  await hooks.event!({ event: { type: "session.created", properties: { info: { id: S } } } });
  const info = { id: "msg_02", sessionID: S, role: "assistant", finish: "stop", time: { completed: 1 } };
  await hooks.event!({
    event: { type: "message.updated", properties: { info: { ...info, tokens: { input: used - 12, output: 12 } } } },
  });
  await hooks.event!({ event: { type: "session.idle", properties: { sessionID: S } } });
}

test("in the TUI a restart ctx orders opens, shows and prompts a new session, then reports it done", async () => {
  const prompt = "Continue the work from the handoff summary";
  const { hooks, sdk, calls } = await load({ ModIdle: { ctx_cycle: { kind: "restart", prompt } } }, true);
  await stepAndIdle(hooks, 48_000);
  expect(calls().map((c) => c.hook_event_name)).toEqual(["session.created", "session.created", "session.idle"]);
  await until(() => calls().some((c) => c.hook_event_name === "ModCycleDone"));
  const idle = calls().find((c) => c.hook_event_name === "ModIdle")!;
  expect(idle).toMatchObject({
    client: "opencode",
    session_id: S,
    limit: LIMIT,
    tokens: { input: 47_988, output: 12 },
  });
  expect(idle.ctx_idle).toEqual(QUIET_IDLE);
  expect(idle.transcript_path).toBeUndefined();
  expect(sdk).toEqual([
    "create",
    ["publish", { body: { type: "tui.session.select", properties: { sessionID: NEW } } }],
    [
      "promptAsync",
      {
        path: { id: NEW },
        body: {
          model: { providerID: "anthropic", modelID: "claude-sonnet-4-5" },
          agent: "build",
          parts: [{ type: "text", text: prompt }],
        },
      },
    ],
  ]);
  const after = calls().map((c) => [c.hook_event_name, c.session_id]);
  // The old session ends for ctx, the new one starts (track, resume), then the cycle is reported done.
  expect(after.slice(4)).toEqual([
    ["session.deleted", S],
    ["session.created", NEW],
    ["session.created", NEW],
    ["ModCycleDone", NEW],
  ]);
  // The same idle again (no new step): no call.
  const n = calls().length;
  await hooks.event!({ event: { type: "session.idle", properties: { sessionID: S } } });
  await Bun.sleep(OPENCODE_QUIET_MS + 500);
  expect(calls().filter((c) => c.hook_event_name === "ModIdle")).toHaveLength(1);
  expect(calls().length).toBe(n + 1); // the idle's own track call
}, 30_000);

test("what the plugin reports at an idle: an interrupted turn, a busy subagent, an open question, a busy session", async () => {
  const { hooks, calls, setStatus } = await load({}, true);
  setStatus({ [S]: { type: "busy" } });
  await hooks.event!({ event: { type: "session.created", properties: { info: { id: "ses_kid", parentID: S } } } });
  await hooks.event!({
    event: { type: "session.status", properties: { sessionID: "ses_kid", status: { type: "busy" } } },
  });
  await hooks.event!({ event: { type: "question.asked", properties: { id: "que_1", sessionID: S } } });
  await hooks["chat.params"]!({ sessionID: S, agent: "build", model: { id: "m", providerID: "p", limit: LIMIT } });
  const info = { id: "msg_02", sessionID: S, role: "assistant", error: { name: "MessageAbortedError" } };
  await hooks.event!({
    event: { type: "message.updated", properties: { info: { ...info, tokens: { input: 47_988, output: 12 } } } },
  });
  // A subagent's own idle is not the session's.
  await hooks.event!({ event: { type: "session.idle", properties: { sessionID: "ses_kid" } } });
  await hooks.event!({ event: { type: "session.idle", properties: { sessionID: S } } });
  await until(() => calls().some((c) => c.hook_event_name === "ModIdle"));
  const idles = calls().filter((c) => c.hook_event_name === "ModIdle");
  expect(idles.map((c) => c.session_id)).toEqual([S]);
  expect(idles[0]!.ctx_idle).toEqual({
    turnReason: "interrupted",
    draft: false,
    dialogOpen: true,
    queuedPrompt: true,
    subagentsRunning: 1,
    limited: false,
  });
}, 30_000);

test("outside the TUI (opencode run) the plugin never reports an idle for a cycle", async () => {
  const { hooks, sdk, calls } = await load({ ModIdle: { ctx_cycle: { kind: "restart", prompt: "go" } } }, false);
  await stepAndIdle(hooks, 48_000);
  await Bun.sleep(OPENCODE_QUIET_MS + 500);
  expect(calls().some((c) => c.hook_event_name === "ModIdle")).toBe(false);
  expect(sdk).toEqual([]);
}, 30_000);

test("a compaction: ctx's instructions join its context, ctx's summary replaces its first text only", async () => {
  const { hooks, sdk, calls } = await load(
    {
      ModIdle: { ctx_cycle: { kind: "compact", instructions: "Keep the task state." } },
      ModSummary: { ctx_summary: "CTX-FRAMED-SUMMARY" },
    },
    true,
  );
  await stepAndIdle(hooks, 45_000);
  await until(() => calls().some((c) => c.hook_event_name === "ModCycleDone"));
  expect(sdk).toEqual([
    ["summarize", { path: { id: S }, body: { providerID: "anthropic", modelID: "claude-sonnet-4-5" } }],
  ]);
  const out = { context: [] as string[] };
  await hooks["experimental.session.compacting"]!({ sessionID: S }, out);
  expect(out.context).toEqual(["Keep the task state."]);
  expect(calls().some((c) => c.hook_event_name === "ModSummary" && c.session_id === S)).toBe(true);
  const first = { text: "OpenCode's own summary" };
  await hooks["experimental.text.complete"]!({ sessionID: S, messageID: "msg_03", partID: "prt_03" }, first);
  expect(first.text).toBe("CTX-FRAMED-SUMMARY");
  const next = { text: "a later answer" };
  await hooks["experimental.text.complete"]!({ sessionID: S, messageID: "msg_05", partID: "prt_05" }, next);
  expect(next.text).toBe("a later answer");
}, 30_000);

test("a compaction that ends without its summary text leaves the next answer alone", async () => {
  const { hooks } = await load({ ModSummary: { ctx_summary: "CTX-FRAMED-SUMMARY" } }, true);
  await hooks["experimental.session.compacting"]!({ sessionID: S }, { context: [] });
  await hooks.event!({ event: { type: "session.error", properties: { sessionID: S, error: { name: "APIError" } } } });
  const out = { text: "the next answer" };
  await hooks["experimental.text.complete"]!({ sessionID: S, messageID: "msg_04", partID: "prt_04" }, out);
  expect(out.text).toBe("the next answer");
});

test("without ctx's summary (the option off) OpenCode's compaction text stays", async () => {
  const { hooks } = await load({}, true);
  await hooks["experimental.session.compacting"]!({ sessionID: S }, { context: [] });
  const out = { text: "OpenCode's own summary" };
  await hooks["experimental.text.complete"]!({ sessionID: S, messageID: "msg_03", partID: "prt_03" }, out);
  expect(out.text).toBe("OpenCode's own summary");
});

test("the summary goes into the first message as a part of its own, after the prompt's, whatever the prompt's id", async () => {
  // OpenCode's part ids end in a random base62 character; the summary's id once only replaced it with "Z", so a
  // prompt part whose id ended in "Z" (1 in 62) was overwritten by the summary (seen once in e2e/opencode-cycle).
  const summary = { hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: "SUMMARY-TEXT" } };
  for (const last of ["Z", "a", "0"]) {
    const { hooks } = await load({ "session.created": summary }, false);
    await hooks.event!({ event: { type: "session.created", properties: { info: { id: S } } } });
    const prompt = { id: `prt_0123456789abcdefABCDEFGHI${last}`, type: "text", text: "Continue the work" };
    const output = { message: { id: "msg_1" }, parts: [prompt] };
    await hooks["chat.message"]!({ sessionID: S }, output);
    const [first, second] = output.parts as { id: string; text: string }[];
    expect([first!.text, second!.text]).toEqual(["Continue the work", "SUMMARY-TEXT"]);
    expect(second!.id > first!.id).toBe(true);
    expect(output.parts).toHaveLength(2);
  }
});
