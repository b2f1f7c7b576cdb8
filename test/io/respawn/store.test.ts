import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  listRecords,
  readHookState,
  readRecord,
  recordPath,
  writeIndexRespawn,
} from "../../../src/io/respawn/store.ts";

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

describe("writeIndexRespawn", () => {
  test("sets only the respawn field of an existing entry, creates a minimal one otherwise", () => {
    const env = { XDG_STATE_HOME: join(dir, "xdg"), HOME: dir };
    const sessions = join(dir, "xdg", "ctx", "sessions");
    mkdirSync(sessions, { recursive: true });
    writeFileSync(
      join(sessions, "s-1.json"),
      JSON.stringify({ version: 1, session_id: "s-1", used_pct: 77, respawn: null }),
    );
    writeIndexRespawn(env, "s-1", { project: "/p", root: "/p/.ctx" }, { name: "w", state: "idle" });
    expect(JSON.parse(readFileSync(join(sessions, "s-1.json"), "utf8"))).toEqual({
      version: 1,
      session_id: "s-1",
      used_pct: 77,
      respawn: { name: "w", state: "idle" },
    });
    writeIndexRespawn(env, "s-2", { project: "/p", root: "/p/.ctx" }, { name: "w", state: "cycling" });
    expect(JSON.parse(readFileSync(join(sessions, "s-2.json"), "utf8"))).toMatchObject({
      session_id: "s-2",
      project: "/p",
      root: "/p/.ctx",
      respawn: { state: "cycling" },
    });
    writeIndexRespawn(env, "../x", { project: "/p", root: "/p/.ctx" }, null); // never a path from an unsafe id
  });
  test("a corrupt entry is kept aside for inspection and started over", () => {
    const env = { XDG_STATE_HOME: join(dir, "xdg"), HOME: dir };
    const sessions = join(dir, "xdg", "ctx", "sessions");
    mkdirSync(sessions, { recursive: true });
    writeFileSync(join(sessions, "s-4.json"), '{"version":1,"sess');
    writeIndexRespawn(env, "s-4", { project: "/p", root: "/p/.ctx" }, { state: "idle" });
    expect(JSON.parse(readFileSync(join(sessions, "s-4.json"), "utf8"))).toMatchObject({
      session_id: "s-4",
      respawn: { state: "idle" },
    });
    const aside = readdirSync(sessions).filter((f) => f.startsWith("s-4.json.corrupt-"));
    expect(aside).toHaveLength(1);
    expect(readFileSync(join(sessions, aside[0]!), "utf8")).toBe('{"version":1,"sess');
  });
  test("a symlink planted at the entry is replaced, not followed", () => {
    const env = { XDG_STATE_HOME: join(dir, "xdg"), HOME: dir };
    const sessions = join(dir, "xdg", "ctx", "sessions");
    mkdirSync(sessions, { recursive: true });
    writeFileSync(join(dir, "victim"), "keep");
    symlinkSync(join(dir, "victim"), join(sessions, "s-3.json"));
    writeIndexRespawn(env, "s-3", { project: "/p", root: "/p/.ctx" }, { state: "idle" });
    expect(readFileSync(join(dir, "victim"), "utf8")).toBe("keep");
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
