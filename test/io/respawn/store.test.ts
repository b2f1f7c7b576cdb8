import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { aiCheckPrompt, parseVerdict } from "../../../src/io/respawn/actions.ts";
import { listRecords, parseRecord, readHookState, readRecord, recordPath } from "../../../src/io/respawn/store.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ctx-respawn-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("readHookState", () => {
  test("reads the newest session's usage, Stop time and transcript from context-usage.json", () => {
    mkdirSync(join(dir, "state"), { recursive: true });
    writeFileSync(
      join(dir, "state", "context-usage.json"),
      JSON.stringify({
        session_id: "s-1",
        used_tokens: 180000,
        used_pct: 90,
        updated_at: "2026-01-01T00:00:02.000Z",
        last_stop_at: "2026-01-01T00:00:01.000Z",
        transcript_path: "/t/s-1.jsonl",
      }),
    );
    expect(readHookState(dir)).toEqual({
      session_id: "s-1",
      used_pct: 90,
      updated_ms: Date.parse("2026-01-01T00:00:02Z"),
      last_stop_ms: Date.parse("2026-01-01T00:00:01Z"),
      transcript_path: "/t/s-1.jsonl",
    });
  });
  test("a fresh session without usage has no percentage; unsafe ids and garbage give nothing", () => {
    mkdirSync(join(dir, "state"), { recursive: true });
    const file = join(dir, "state", "context-usage.json");
    writeFileSync(
      file,
      JSON.stringify({ session_id: "s-2", used_tokens: 0, used_pct: 0, updated_at: "x", last_stop_at: null }),
    );
    expect(readHookState(dir)).toMatchObject({
      session_id: "s-2",
      used_pct: null,
      updated_ms: 0,
      last_stop_ms: null,
      transcript_path: null,
    });
    writeFileSync(file, JSON.stringify({ session_id: "../etc", used_tokens: 5, used_pct: 5 }));
    expect(readHookState(dir)).toBeUndefined();
    writeFileSync(file, "{not json");
    expect(readHookState(dir)).toBeUndefined();
  });
});

describe("records", () => {
  test("listRecords and readRecord see the supervisors of a root", () => {
    mkdirSync(join(dir, "state", "respawn"), { recursive: true });
    writeFileSync(recordPath(dir, "a"), JSON.stringify({ version: 1, name: "a", phase: "idle" }));
    writeFileSync(join(dir, "state", "respawn", "a.log"), "");
    expect(listRecords(dir)).toEqual(["a"]);
    expect(readRecord(dir, "a")).toMatchObject({ name: "a", phase: "idle" });
    expect(readRecord(dir, "b")).toBeUndefined();
  });
});

describe("parseRecord", () => {
  test("any object is a record, with its phase, pid and events narrowed; anything else is none", () => {
    expect(parseRecord({ name: "a", phase: "idle", pid: 42, events: [{ at: "t", event: "idle" }] })).toMatchObject({
      name: "a",
      phase: "idle",
      pid: 42,
      events: [{ at: "t", event: "idle" }],
    });
    const odd = parseRecord({ name: "b", phase: 3, pid: -1, events: [{ event: 1 }, null, { event: "x", detail: 2 }] });
    expect(odd as unknown).toEqual({ name: "b", phase: "", pid: 0, events: [{ at: "", event: "x" }] });
    expect(parseRecord({ pid: 1.5 })).toMatchObject({ pid: 0, events: [] });
    for (const v of [null, [], "x", 5]) expect(parseRecord(v)).toBeUndefined();
  });
});

describe("AI check helpers", () => {
  test.each([
    ["IDLE", "idle"],
    ["The session is idle.", "idle"],
    ["WORKING", "working"],
    ["idle or working?", "error"],
    ["no idea", "error"],
  ])("parseVerdict(%j) = %s", (text, verdict) => {
    expect(parseVerdict(text)).toBe(verdict as "idle");
  });
  test("the prompt carries the ANSI-stripped screen tail", () => {
    const p = aiCheckPrompt(`\x1b[31m${"x".repeat(20_000)}✻ Baked for 0s\x1b[0m`);
    expect(p).toContain("✻ Baked for 0s\n</screen>");
    expect(p).not.toContain("\x1b");
    expect(p.length).toBeLessThan(17_000);
  });
});
