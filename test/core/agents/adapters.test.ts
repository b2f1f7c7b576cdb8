/** The client adapters (src/core/agents/): one event normalisation, one line detection, install entries. */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { AGENTS, agent, decodeHook, decodeLine, unclaimedHook } from "../../../src/core/agents/index.ts";
import { codexUsedPct } from "../../../src/core/agents/codex.ts";
import { ctxHooks } from "../../../src/core/settings/entries.ts";

const FIX = join(import.meta.dir, "..", "..", "fixtures");
const codexHooks = readFileSync(join(FIX, "codex", "hooks.jsonl"), "utf8")
  .trim()
  .split("\n")
  .map((l) => JSON.parse(l) as Record<string, unknown>);
const claudeHook = JSON.parse(readFileSync(join(FIX, "hooks", "PostToolUse.json"), "utf8"));

describe("every adapter", () => {
  test("maps only to ctx's normalised events, and each install entry's event is one it maps", () => {
    const normal = new Set(Object.values(agent("claude").events).concat(["PostCompact", "PreCompress"]));
    for (const a of AGENTS) {
      for (const e of Object.values(a.events)) expect(normal.has(e)).toBe(true);
      for (const h of a.hooks) expect(a.events[h.event]).toBeDefined();
      // A plugin client has no hook entries: its plugin calls monitor and the resume hook (opencode.test.ts).
      if (a.plugin) continue;
      expect(a.hooks.some((h) => h.sub === "monitor" && a.events[h.event] === "PostToolUse")).toBe(true);
      expect(a.hooks.some((h) => h.sub === "resume --hook" && h.event === "SessionStart")).toBe(true);
    }
  });
  test("install entries come from the adapter, timeouts in its unit", () => {
    expect(ctxHooks("gemini")[0]).toEqual({ event: "AfterTool", sub: "monitor", timeout: 10_000, matcher: ".*" });
    expect(ctxHooks("codex").map((h) => `${h.event}:${h.sub}`)).toContain("PostToolUse:monitor");
    expect(ctxHooks("codex")[0]!.timeout).toBe(10);
  });
});

describe("a hook payload is given to one client, by the payload only", () => {
  test("real Codex CLI payloads (SessionStart without turn_id too) are Codex's", () => {
    expect(codexHooks.length).toBeGreaterThan(5);
    for (const input of codexHooks) expect(decodeHook(input)?.agent).toBe("codex");
  });
  test("a Claude Code payload is Claude Code's; Gemini CLI's own events are Gemini's", () => {
    expect(decodeHook(claudeHook)?.agent).toBe("claude");
    expect(decodeHook({ hook_event_name: "AfterTool", session_id: "s" })).toMatchObject({
      agent: "gemini",
      rawEvent: "AfterTool",
      event: "PostToolUse",
    });
  });
  test("Codex's PostToolUse stays a PostToolUse with Claude Code's fields; an unread event has no normal name", () => {
    const post = codexHooks.find((h) => h.hook_event_name === "PostToolUse")!;
    const hook = decodeHook(post)!;
    expect(hook).toMatchObject({ agent: "codex", event: "PostToolUse", rawEvent: "PostToolUse" });
    expect(hook.input.tool_input).toEqual({ command: "echo hi" });
    expect(decodeHook({ ...post, hook_event_name: "PreModelRequest" })!.event).toBeUndefined();
    expect(decodeHook({ session_id: "x" })).toBeUndefined();
  });
});

describe("a transcript line is given to one decoder", () => {
  test("rollout lines are Codex's, chat-log records Gemini's, the rest Claude Code's", () => {
    const rollout = readFileSync(join(FIX, "codex", "rollout-compact.jsonl"), "utf8")
      .trim()
      .split("\n");
    for (const l of rollout) expect(decodeLine(JSON.parse(l))?.agent).toBe("codex");
    expect(decodeLine({ type: "gemini", tokens: { input: 1 } })?.agent).toBe("gemini");
    expect(decodeLine({ type: "user", content: [{ text: "hi" }] })?.agent).toBe("gemini");
    expect(decodeLine({ type: "assistant", message: { content: [] } })?.agent).toBe("claude");
    expect(decodeLine({ type: "user", message: { content: "hi" } })?.agent).toBe("claude");
  });
});

describe("nothing is read as another client's", () => {
  test("a payload of an event no client has is not decoded, and is reported", () => {
    const odd = { hook_event_name: "BeforeSomething", session_id: "s" };
    expect(decodeHook(odd)).toBeUndefined();
    expect(unclaimedHook(odd)).toContain("no client claims");
    expect(unclaimedHook(claudeHook)).toBeUndefined();
    expect(unclaimedHook({ session_id: "s" })).toBeUndefined();
  });
  test("a line of no client's shape has no decoder", () => {
    expect(decodeLine({ type: "mystery", data: 1 })).toBeUndefined();
    expect(decodeLine({ role: "assistant", tokens: {} })).toBeUndefined();
  });
  test("a tool hook waits for the call as its client's transcript names it", () => {
    const post = codexHooks.find((h) => h.hook_event_name === "PostToolUse")!;
    expect(decodeHook({ ...post, tool_use_id: "call_abcdefgh" })?.waitNeedle).toBe('"call_id":"call_abcdefgh"');
    expect(decodeHook({ ...claudeHook, tool_use_id: "toolu_abcdefgh" })?.waitNeedle).toBe('"id":"toolu_abcdefgh"');
  });
});

describe("Codex's used %", () => {
  // W = 258,400 (gpt-5.5); the figure Codex's TUI shows, from Codex's formula (docs/clients.md).
  test.each([
    [12_000, 0],
    [100_010, 36],
    [170_000, 64],
    [172_600, 65],
    [200_000, 76],
    [250_010, 97],
    [300_000, 100],
  ])("%d tokens of 258,400 is %d%%", (t, pct) => expect(codexUsedPct(t, 258_400)).toBe(pct));
  test("differs from the plain share where the baseline matters", () => {
    expect(Math.round((100_010 / 258_400) * 100)).toBe(39);
    expect(codexUsedPct(0, 10_000)).toBe(0);
  });
});
