import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { listRecords, readRecord, recordPath, writeIndexRespawn } from "../../../src/io/respawn/store.ts";

let dir = "";
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "ctx-respawn-store-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

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
