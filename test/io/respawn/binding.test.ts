import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Subprocess } from "bun";
import { PaneSession, PID_CACHE_MS, readHookState } from "../../../src/io/respawn/binding.ts";
import { tempDir } from "../../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
let root = "";
let tree: Subprocess | undefined;
beforeEach(() => {
  t = tempDir();
  root = join(t.dir, ".ctx");
  mkdirSync(join(root, "state", "sessions"), { recursive: true });
});
afterEach(() => {
  tree?.kill("SIGKILL");
  tree = undefined;
  t.cleanup();
});

/** A session state as ctx track writes it. */
function state(
  sid: string,
  pct: number,
  claudePid: number | null,
  updated: string,
  stop: string | null = null,
): Record<string, unknown> {
  return {
    version: 1,
    session_id: sid,
    project: t.dir,
    used_tokens: pct * 2000,
    used_pct: pct,
    updated_at: updated,
    last_stop_at: stop,
    claude_pid: claudePid,
    transcript_path: null,
  };
}
/** Writes it the way track does: a temp file renamed over the old one. */
function put(s: Record<string, unknown>): void {
  const path = join(root, "state", "sessions", `${s.session_id}.json`);
  writeFileSync(`${path}.tmp`, JSON.stringify(s));
  renameSync(`${path}.tmp`, path);
}

/** A real process tree: a shell (the "pane") with a child (its "claude"); resolves both pids. */
async function paneTree(): Promise<{ pane: number; child: number }> {
  tree = Bun.spawn(["sh", "-c", "sleep 60 & echo $!; wait"], { stdout: "pipe", stdin: "ignore" });
  const reader = (tree.stdout as ReadableStream<Uint8Array>).getReader();
  const { value } = await reader.read();
  reader.releaseLock();
  return { pane: tree.pid, child: Number(new TextDecoder().decode(value).trim()) };
}

test("PaneSession.read() follows the session whose claude_pid runs in the pane, not a newer, fuller session of another process", async () => {
  const { pane, child } = await paneTree();
  put(state("mine", 40, child, "2026-01-01T00:00:01.000Z", "2026-01-01T00:00:00.500Z"));
  const other = state("other", 95, process.pid, "2026-01-01T00:00:09.000Z", "2026-01-01T00:00:08.000Z");
  put(other);
  writeFileSync(join(root, "state", "context-usage.json"), JSON.stringify(other)); // the latest reporter
  const ps = new PaneSession(root, pane, () => 0);
  expect(ps.read()).toMatchObject({
    session_id: "mine",
    used_pct: 40,
    last_stop_ms: Date.parse("2026-01-01T00:00:00.500Z"),
  });
  expect(ps.runsInPane(child)).toBe(true);
  expect(ps.runsInPane(pane)).toBe(true);
  expect(ps.runsInPane(process.pid)).toBe(false);
});

test("PaneSession.read() follows the /clear chain: the newest state with the pane's claude_pid wins, re-read when it changes", async () => {
  const { pane, child } = await paneTree();
  put(state("before-clear", 91, child, "2026-01-01T00:00:01.000Z"));
  const ps = new PaneSession(root, pane, () => 0);
  expect(ps.read()?.session_id).toBe("before-clear");
  put(state("after-clear", 12, child, "2026-01-01T00:00:05.000Z"));
  expect(ps.read()).toMatchObject({ session_id: "after-clear", used_pct: 12 });
  put(state("after-clear", 30, child, "2026-01-01T00:00:07.000Z"));
  expect(ps.read()).toMatchObject({ session_id: "after-clear", used_pct: 30 });
});

test("PaneSession.read() returns nothing when states carry claude_pids but none runs in the pane", async () => {
  const { pane } = await paneTree();
  put(state("other", 95, process.pid, "2026-01-01T00:00:09.000Z"));
  put(state("old", 95, null, "2026-01-01T00:00:10.000Z"));
  writeFileSync(
    join(root, "state", "context-usage.json"),
    JSON.stringify(state("old", 95, null, "2026-01-01T00:00:10.000Z")),
  );
  expect(new PaneSession(root, pane, () => 0).read()).toBeUndefined();
});

test("PaneSession.read() falls back to context-usage.json only when no session state has a claude_pid (old state)", async () => {
  const { pane } = await paneTree();
  const old = state("old", 88, null, "2026-01-01T00:00:10.000Z");
  put(old);
  writeFileSync(join(root, "state", "context-usage.json"), JSON.stringify(old));
  expect(new PaneSession(root, pane, () => 0).read()).toMatchObject({ session_id: "old", used_pct: 88 });
});

test("PaneSession never follows a planted symlink among the session states", async () => {
  const { pane, child } = await paneTree();
  const planted = join(t.dir, "planted.json");
  writeFileSync(planted, JSON.stringify(state("planted", 99, child, "2026-01-01T00:00:09.000Z")));
  symlinkSync(planted, join(root, "state", "sessions", "planted.json"));
  put(state("real", 10, process.pid, "2026-01-01T00:00:01.000Z"));
  expect(new PaneSession(root, pane, () => 0).read()).toBeUndefined();
});

test("PaneSession caches the in-pane answer for a pid and refreshes it after PID_CACHE_MS", async () => {
  const { pane, child } = await paneTree();
  let clock = 0;
  const ps = new PaneSession(root, pane, () => clock);
  expect(ps.runsInPane(child)).toBe(true);
  tree!.kill("SIGKILL");
  await tree!.exited;
  await Bun.sleep(50);
  expect(ps.runsInPane(child)).toBe(true); // cached
  clock += PID_CACHE_MS;
  expect(ps.runsInPane(child)).toBe(false); // the shell is gone: the sleep was reparented
});

describe("readHookState", () => {
  test("reads the newest session's usage, Stop time and transcript from context-usage.json", () => {
    mkdirSync(join(root, "state"), { recursive: true });
    writeFileSync(
      join(root, "state", "context-usage.json"),
      JSON.stringify({
        session_id: "s-1",
        used_tokens: 180000,
        used_pct: 90,
        updated_at: "2026-01-01T00:00:02.000Z",
        last_stop_at: "2026-01-01T00:00:01.000Z",
        transcript_path: "/t/s-1.jsonl",
      }),
    );
    expect(readHookState(root)).toEqual({
      session_id: "s-1",
      used_pct: 90,
      updated_ms: Date.parse("2026-01-01T00:00:02Z"),
      last_stop_ms: Date.parse("2026-01-01T00:00:01Z"),
      transcript_path: "/t/s-1.jsonl",
    });
  });
  test("a fresh session without usage has no percentage; unsafe ids and garbage give nothing", () => {
    mkdirSync(join(root, "state"), { recursive: true });
    const file = join(root, "state", "context-usage.json");
    writeFileSync(
      file,
      JSON.stringify({ session_id: "s-2", used_tokens: 0, used_pct: 0, updated_at: "x", last_stop_at: null }),
    );
    expect(readHookState(root)).toMatchObject({
      session_id: "s-2",
      used_pct: null,
      updated_ms: 0,
      last_stop_ms: null,
      transcript_path: null,
    });
    writeFileSync(file, JSON.stringify({ session_id: "../etc", used_tokens: 5, used_pct: 5 }));
    expect(readHookState(root)).toBeUndefined();
    writeFileSync(file, "{not json");
    expect(readHookState(root)).toBeUndefined();
  });
});

test("replaced: the pane's process gone (respawn-pane) means bind again, checked only after the pid cache time", () => {
  const procRoot = join(t.dir, "proc");
  mkdirSync(join(procRoot, "123"), { recursive: true });
  let now = 1_000_000;
  const s = new PaneSession(root, 123, () => now, procRoot);
  expect(s.replaced()).toBe(false);
  now += PID_CACHE_MS + 1;
  expect(s.replaced()).toBe(false); // still running
  const gone = new PaneSession(root, 456, () => now, procRoot);
  expect(gone.replaced()).toBe(false); // just bound
  now += PID_CACHE_MS + 1;
  expect(gone.replaced()).toBe(true);
});
