import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { initialState } from "../../../src/core/track/state.ts";
import { readIndex, setRespawn, writeEntry } from "../../../src/io/session/index.ts";
import { tempDir } from "../../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
let dir = "";
beforeEach(() => {
  t = tempDir("ctx-index-");
  dir = t.dir;
});
afterEach(() => t.cleanup());

describe("setRespawn", () => {
  test("sets only the respawn field of an existing entry, creates a minimal one otherwise", () => {
    const env = { XDG_STATE_HOME: join(dir, "xdg"), HOME: dir };
    const sessions = join(dir, "xdg", "ctx", "sessions");
    mkdirSync(sessions, { recursive: true });
    writeFileSync(
      join(sessions, "s-1.json"),
      JSON.stringify({ version: 1, session_id: "s-1", used_pct: 77, respawn: null }),
    );
    setRespawn(env, "s-1", { project: "/p", root: "/p/.ctx" }, { name: "w", state: "idle" });
    expect(JSON.parse(readFileSync(join(sessions, "s-1.json"), "utf8"))).toEqual({
      version: 1,
      session_id: "s-1",
      used_pct: 77,
      respawn: { name: "w", state: "idle" },
    });
    setRespawn(env, "s-2", { project: "/p", root: "/p/.ctx" }, { name: "w", state: "cycling" });
    expect(JSON.parse(readFileSync(join(sessions, "s-2.json"), "utf8"))).toMatchObject({
      session_id: "s-2",
      project: "/p",
      root: "/p/.ctx",
      respawn: { state: "cycling" },
    });
    setRespawn(env, "../x", { project: "/p", root: "/p/.ctx" }, null); // never a path from an unsafe id
  });
  test("a corrupt entry is kept aside for inspection and started over", () => {
    const env = { XDG_STATE_HOME: join(dir, "xdg"), HOME: dir };
    const sessions = join(dir, "xdg", "ctx", "sessions");
    mkdirSync(sessions, { recursive: true });
    writeFileSync(join(sessions, "s-4.json"), '{"version":1,"sess');
    setRespawn(env, "s-4", { project: "/p", root: "/p/.ctx" }, { state: "idle" });
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
    setRespawn(env, "s-3", { project: "/p", root: "/p/.ctx" }, { state: "idle" });
    expect(readFileSync(join(dir, "victim"), "utf8")).toBe("keep");
  });
});

describe("writeEntry", () => {
  test("writes the entry from the session's state and keeps the respawn field setRespawn wrote", () => {
    const env = { XDG_STATE_HOME: join(dir, "xdg"), HOME: dir };
    const sessions = join(dir, "xdg", "ctx", "sessions");
    setRespawn(env, "s-5", { project: "/p", root: "/p/.ctx" }, { name: "w", state: "idle" });
    const state = { ...initialState("s-5", "/p", "chain-s5", "2026-01-01T00:00:00.000Z"), used_pct: 42 };
    writeEntry(env, "/p/.ctx", state);
    expect(JSON.parse(readFileSync(join(sessions, "s-5.json"), "utf8"))).toMatchObject({
      version: 1,
      session_id: "s-5",
      task_id: "chain-s5",
      project: "/p",
      root: "/p/.ctx",
      state_path: "/p/.ctx/state/sessions/s-5.json",
      used_pct: 42,
      respawn: { name: "w", state: "idle" },
      updated_at: "2026-01-01T00:00:00.000Z",
    });
    expect(readIndex(env, Date.parse("2026-01-01T00:01:00Z")).map((s) => s.entry.session_id)).toEqual(["s-5"]);
  });
  test("an unsafe session id writes nothing; a symlinked index is neither written nor read", () => {
    const env = { XDG_STATE_HOME: join(dir, "xdg"), HOME: dir };
    writeEntry(env, "/p/.ctx", initialState("../x", "/p", "chain-x", "2026-01-01T00:00:00.000Z"));
    expect(readdirSync(dir)).toEqual([]);
    mkdirSync(join(dir, "elsewhere"));
    mkdirSync(join(dir, "xdg", "ctx"), { recursive: true });
    symlinkSync(join(dir, "elsewhere"), join(dir, "xdg", "ctx", "sessions"));
    expect(() => writeEntry(env, "/p/.ctx", initialState("s-6", "/p", "c", "2026-01-01T00:00:00.000Z"))).toThrow();
    expect(readdirSync(join(dir, "elsewhere"))).toEqual([]);
    writeFileSync(join(dir, "elsewhere", "s-7.json"), JSON.stringify({ version: 1, session_id: "s-7" }));
    expect(readIndex(env)).toEqual([]);
  });
});

describe("readIndex", () => {
  test("an entry's supervisor: its 5 newest well-formed events, alive when its pid runs or it stopped", () => {
    const env = { XDG_STATE_HOME: join(dir, "xdg"), HOME: dir };
    const root = join(dir, "p", ".ctx");
    mkdirSync(join(root, "state", "respawn"), { recursive: true });
    const events = [
      ...Array.from({ length: 6 }, (_, i) => ({ at: `t${i}`, event: "idle" })),
      { at: "t6", event: "step", detail: "sent /clear" },
      { event: 5 },
    ];
    const record = join(root, "state", "respawn", "w.json");
    writeFileSync(record, JSON.stringify({ version: 1, name: "w", pid: process.pid, phase: "idle", events }));
    setRespawn(env, "s-8", { project: join(dir, "p"), root }, { name: "w", state: "idle", state_path: record });
    const [one] = readIndex(env);
    expect(one?.supervisor).toEqual({
      alive: true,
      events: [
        { at: "t2", event: "idle", detail: null },
        { at: "t3", event: "idle", detail: null },
        { at: "t4", event: "idle", detail: null },
        { at: "t5", event: "idle", detail: null },
        { at: "t6", event: "step", detail: "sent /clear" },
      ],
    });
    writeFileSync(record, JSON.stringify({ phase: "cycling", pid: "x" }));
    expect(readIndex(env)[0]?.supervisor).toEqual({ alive: false, events: [] });
    writeFileSync(record, JSON.stringify({ phase: "stopped" }));
    expect(readIndex(env)[0]?.supervisor).toEqual({ alive: true, events: [] });
    writeFileSync(record, "{not json");
    expect(readIndex(env)[0]?.supervisor).toBeUndefined();
    expect(readdirSync(join(root, "state", "respawn"))).toEqual(["w.json"]); // status only looks: nothing set aside
  });
});
