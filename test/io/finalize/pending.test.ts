import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { finalizeLikelyRunning } from "../../../src/io/finalize/pending.ts";
import { tempDir } from "../../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
let root: string;
const NOW = Date.now();
beforeEach(() => {
  t = tempDir();
  root = t.dir;
  mkdirSync(join(root, "sessions"), { recursive: true });
  mkdirSync(join(root, "state", "sessions"), { recursive: true });
});
afterEach(() => t.cleanup());

function file(path: string, text: string, ageMs: number): void {
  writeFileSync(path, text);
  const when = (NOW - ageMs) / 1000;
  utimesSync(path, when, when);
}
const state = (sid: string, fields: object, ageMs = 1000) =>
  file(
    join(root, "state", "sessions", `${sid}.json`),
    JSON.stringify({ version: 1, session_id: sid, ...fields }),
    ageMs,
  );

describe("finalizeLikelyRunning", () => {
  test("a session that just ended with auto-pause on means a finalize is due", () => {
    state("old", { auto_pause_active: true, last_event: "SessionEnd" });
    expect(finalizeLikelyRunning(root, "new", 0, NOW, 60_000)).toBe(true);
  });
  test.each([
    ["not paused", { auto_pause_active: false, last_event: "SessionEnd" }, 1000, 0],
    ["still running", { auto_pause_active: true, last_event: "Stop" }, 1000, 0],
    ["ended long ago", { auto_pause_active: true, last_event: "SessionEnd" }, 120_000, 0],
    ["already summarised (summary newer)", { auto_pause_active: true, last_event: "SessionEnd" }, 1000, NOW - 500],
  ])("no wait when the other session is %s", (_n, fields, age, newestSummaryMs) => {
    state("old", fields, age);
    expect(finalizeLikelyRunning(root, "new", newestSummaryMs, NOW, 60_000)).toBe(false);
  });
  test("the new session's own files do not count", () => {
    state("new", { auto_pause_active: true, last_event: "SessionEnd" });
    file(join(root, "sessions", "ACTIVE-PAUSE-new.jsonl"), "{}\n", 1000);
    expect(finalizeLikelyRunning(root, "new", 0, NOW, 60_000)).toBe(false);
  });
  test("a fresh action log of another session counts", () => {
    file(join(root, "sessions", "ACTIVE-PAUSE-old.jsonl"), "{}\n", 1000);
    expect(finalizeLikelyRunning(root, "new", 0, NOW, 60_000)).toBe(true);
  });
  test("a root without state is fine", () => {
    expect(finalizeLikelyRunning(join(root, "nothing"), "new", 0, NOW, 60_000)).toBe(false);
  });
});
