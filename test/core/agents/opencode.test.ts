/**
 * OpenCode's decoders (src/core/agents/opencode*.ts) from records of the real 1.18.33
 * (test/fixtures/opencode/): the plugin's payload, the store's rows, the summary, the plugin's text.
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { agent, decodeHook, decodeLine } from "../../../src/core/agents/index.ts";
import { compactionPoint, payloadUsage } from "../../../src/core/agents/opencode.ts";
import { openCodeStore } from "../../../src/core/agents/opencode-rows.ts";
import { openCodePlugin } from "../../../src/core/agents/opencode-plugin.ts";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { emptyFacts } from "../../../src/core/summary/facts.ts";
import { openWork } from "../../../src/core/summary/open-work.ts";
import { lineUsage } from "../../../src/core/track/tokens.ts";

const FIX = join(import.meta.dir, "..", "..", "fixtures", "opencode");
const lines = (name: string) =>
  readFileSync(join(FIX, name), "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);

/** The store's records as `ctx finalize` reads them: each part with its message's role. */
function sessionRecords(): Array<Array<Record<string, unknown>>> {
  const out: Array<Array<Record<string, unknown>>> = [];
  const roles = new Map<string, unknown>();
  for (const r of lines("db-records.jsonl")) {
    if (r.table === "session") out.push([]);
    if (r.table === "message") roles.set(r.id as string, (r.data as Record<string, unknown>).role);
    if (r.table === "message") out.at(-1)!.push({ table: "message", id: r.id, data: r.data });
    if (r.table === "part") out.at(-1)!.push({ ...r, role: roles.get(r.message_id as string) });
  }
  return out;
}

/** The step before the compaction in the recorded run: 53,040 tokens, limit 60,000 / 8,000. */
const step = { total: 53040, input: 50000, output: 40, reasoning: 0, cache: { write: 0, read: 3000 } };

describe("the plugin's payload", () => {
  test("is OpenCode's by its client field; its dotted events map to ctx's", () => {
    const at = (hook_event_name: string, extra = {}) =>
      decodeHook({ client: "opencode", hook_event_name, session_id: "ses_dccfb1b35ffeun2eyyLm5IEwpG", ...extra });
    expect(at("session.created", { source: "startup" })).toMatchObject({
      agent: "opencode",
      event: "SessionStart",
      source: "clear", // a new session continues the work: the chain's summary, as after /clear
    });
    expect(at("chat.messages.transform")?.event).toBe("PostToolUse");
    expect(at("session.idle")?.event).toBe("Stop");
    expect(at("experimental.session.compacting")?.input.trigger).toBe("auto");
    expect(at("session.compacted")?.event).toBe("PostCompact");
    expect(at("session.deleted")?.event).toBe("SessionEnd");
    // Without the client field a dotted name is nobody's.
    expect(decodeHook({ hook_event_name: "session.idle", session_id: "s" })).toBeUndefined();
  });
  test("carries the step's usage, measured against OpenCode's compaction point", () => {
    const hook = decodeHook({
      client: "opencode",
      hook_event_name: "chat.messages.transform",
      session_id: "ses_x",
      tokens: step,
      limit: { context: 60000, output: 8000 },
      model: "claude-sonnet-4-5",
    });
    expect(hook?.usage).toEqual({ usedTokens: 53040, windowSize: 52000, model: "claude-sonnet-4-5" });
    expect(payloadUsage({ tokens: step })).toBeUndefined(); // no limit: no guess
  });
  test("the compaction point: context − min(output, 32k); input − 20k; the context when auto is off", () => {
    expect(compactionPoint({ context: 200000, output: 64000 }, {})).toBe(168000);
    expect(compactionPoint({ context: 400000, input: 272000, output: 128000 }, {})).toBe(252000);
    expect(compactionPoint({ context: 400000, input: 272000, output: 128000 }, { reserved: 10000 })).toBe(262000);
    expect(compactionPoint({ context: 200000, output: 64000 }, { auto: false })).toBe(200000);
    expect(compactionPoint({}, {})).toBe(0);
  });
});

describe("the store's rows", () => {
  test("every message and part row is OpenCode's, and no other client's line is", () => {
    for (const s of sessionRecords()) for (const r of s) expect(decodeLine(r)?.agent).toBe("opencode");
    expect(decodeLine({ type: "assistant", message: {} })?.agent).toBe("claude");
  });
  test("an assistant message gives its context and its request tokens; a streaming one nothing", () => {
    const [first] = sessionRecords();
    const msgs = first!.filter((r) => r.table === "message");
    const decoder = agent("opencode").transcript;
    expect(decoder.usage(msgs[1]!, false)).toMatchObject({ usedTokens: 15040, model: "claude-sonnet-4-5" });
    expect(lineUsage(msgs[1]!)).toEqual({
      key: `opencode|${msgs[1]!.id}`,
      model: "claude-sonnet-4-5",
      totals: {
        input_tokens: 12000,
        output_tokens: 40,
        cache_creation_input_tokens: 0,
        cache_read_input_tokens: 3000,
        requests: 1,
      },
    });
    expect(decoder.usage(msgs[0]!, false)).toBeUndefined(); // the user's
    const streaming = { table: "message", id: "m", data: { role: "assistant", tokens: { input: 0, output: 0 } } };
    expect(decoder.usage(streaming, false)).toBeUndefined();
  });
  test("a store path names the database and the session; a file path does not", () => {
    expect(openCodeStore.split("/d/opencode/opencode.db#ses_dccfb1b35ffeun2eyyLm5IEwpG")).toEqual({
      file: "/d/opencode/opencode.db",
      key: "ses_dccfb1b35ffeun2eyyLm5IEwpG",
    });
    expect(openCodeStore.split("/d/t.jsonl")).toBeUndefined();
    expect(openCodeStore.split("/d/o.db#ses_../x")).toBeUndefined();
  });
});

describe("the summary's facts", () => {
  test("the bash session: the request without run's quotes, the command, the agent's last text", () => {
    const f = emptyFacts();
    for (const [i, r] of sessionRecords()[0]!.entries()) addEntry(f, r, i + 1);
    expect(f.unclaimedLines).toBe(0);
    expect([f.firstRequest, f.goal]).toEqual([
      "Create out.txt containing hello and show it",
      "Create out.txt containing hello and show it",
    ]);
    expect(f.commands.items).toEqual([{ command: "echo hello > out.txt && cat out.txt", ok: true }]);
    expect(f.lastAgentText).toBe("Done: out.txt contains hello.");
    expect(f.latestTokens).toBe(18012);
    expect(f.model).toBe("claude-sonnet-4-5");
    // The agent answered the request: no open work says it never did.
    expect(f.lastAgentLine).toBeGreaterThan(f.latestLines.at(-1)!);
    expect(openWork(f)).toEqual([]);
  });
  test("the compacted session: one compaction; the summary and the synthetic continue are not the user's", () => {
    const f = emptyFacts();
    for (const r of sessionRecords()[1]!) addEntry(f, r);
    expect(f.compactions).toBe(1);
    expect([f.goal, f.lastRequest]).toEqual(["List the files", "List the files"]);
    expect(f.peakTokens).toBe(53040);
    expect(f.latestTokens).toBe(6012);
  });
});

describe("the plugin ctx installs", () => {
  test("starts with ctx's marker, runs the given ctx, and calls ctx only from its hooks", () => {
    const text = openCodePlugin.text("/opt/ctx/bin/ctx");
    expect(text.startsWith(openCodePlugin.marker)).toBe(true);
    expect(text).toContain('const CTX = "/opt/ctx/bin/ctx";');
    expect(text).toContain("export const CtxPlugin = async");
    // The monitor runs only when the newest step's tokens changed.
    expect(text).toMatch(/seen\.get\(sid\) === total\(step\.info\.tokens\)/);
    expect(text).not.toContain('"tool.execute.after"');
  });
});
