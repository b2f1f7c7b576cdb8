import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { HANDOFF_GRACE_MS, handoffOf, settledHandoffOf } from "../../../src/io/finalize/handoff.ts";
import { tempDir } from "../../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
let root: string;
const NOW = Date.now();
beforeEach(() => {
  t = tempDir();
  root = t.dir;
  for (const d of ["sessions", "state/sessions", "state/monitor"]) mkdirSync(join(root, d), { recursive: true });
});
afterEach(() => t.cleanup());

function file(path: string, text: string, ageMs: number): void {
  writeFileSync(path, text);
  const when = (NOW - ageMs) / 1000;
  utimesSync(path, when, when);
}
const marker = (ageMs: number, text = "") => file(join(root, "state", "monitor", "s1.finalize"), text, ageMs);
/** A finalize lock taken `ageMs` ago by a live process (this one), as io/fs/lock.ts stamps it. */
const lock = (ageMs: number) =>
  file(join(root, "state", "sessions", "s1.json.finalize.lock"), `${process.pid} ${NOW - ageMs} n -`, ageMs);
const state = (finalizedAgoMs: number | null) =>
  file(
    join(root, "state", "sessions", "s1.json"),
    JSON.stringify({
      version: 1,
      session_id: "s1",
      task_id: "chain-s1",
      finalized_stamp: finalizedAgoMs === null ? null : "20260101-120000",
      finalized_at: finalizedAgoMs === null ? null : new Date(NOW - finalizedAgoMs).toISOString(),
    }),
    0,
  );
const summaryPath = () => join(root, "sessions", "summary-chain-s1-20260101-120000.md");

describe("handoffOf()", () => {
  test("no crossing marker yet: the caller starts the finalize now, so it is being written", () => {
    expect(handoffOf(root, "s1", NOW)).toEqual({ state: "writing" });
  });
  test("a finalize holding its lock: being written", () => {
    marker(HANDOFF_GRACE_MS * 3);
    lock(500);
    expect(handoffOf(root, "s1", NOW)).toEqual({ state: "writing" });
  });
  test("written after the crossing, and the file is there: written, with its path", () => {
    marker(5000);
    state(3000);
    file(summaryPath(), "# Handoff", 3000);
    expect(handoffOf(root, "s1", NOW)).toEqual({ state: "written", path: summaryPath() });
  });
  test("a summary of an earlier crossing is not this one's", () => {
    marker(5000);
    state(60_000);
    file(summaryPath(), "# Handoff", 60_000);
    expect(handoffOf(root, "s1", NOW)).toEqual({ state: "writing" });
  });
  test("finalized_at says written but the file is gone: not written", () => {
    marker(HANDOFF_GRACE_MS * 2);
    state(1000);
    expect(handoffOf(root, "s1", NOW).state).toBe("failed");
  });
  test("the finalize noted its failure in the marker: failed, with the reason", () => {
    marker(1000, '{"error":"ENOSPC: no space left on device, write"}\n');
    expect(handoffOf(root, "s1", NOW)).toEqual({ state: "failed", reason: "ENOSPC: no space left on device, write" });
  });
  test("started long ago, no lock, no summary, no note (a full disk refuses the note too): failed", () => {
    marker(HANDOFF_GRACE_MS + 1000);
    expect(handoffOf(root, "s1", NOW)).toEqual({ state: "failed", reason: "ctx finalize did not finish" });
    marker(HANDOFF_GRACE_MS - 5000);
    expect(handoffOf(root, "s1", NOW)).toEqual({ state: "writing" });
  });
  test("a marker dated 1970 (the finalize failed and a full disk refused its note): failed at once", () => {
    file(join(root, "state", "monitor", "s1.finalize"), "", 0);
    utimesSync(join(root, "state", "monitor", "s1.finalize"), 1, 1);
    expect(handoffOf(root, "s1", NOW)).toEqual({
      state: "failed",
      reason: "ctx finalize failed; 'ctx doctor' shows why",
    });
  });
  test("a stale lock (a crashed finalize) does not keep it 'being written' for ever", () => {
    marker(HANDOFF_GRACE_MS * 30);
    lock(10 * 60_000);
    expect(handoffOf(root, "s1", NOW).state).toBe("failed");
    // A lock whose holder is dead (a finalize killed while writing): nothing is coming from it.
    marker(HANDOFF_GRACE_MS * 3);
    file(join(root, "state", "sessions", "s1.json.finalize.lock"), `999999999 ${NOW - 500} n -`, 500);
    expect(handoffOf(root, "s1", NOW).state).toBe("failed");
  });
});

describe("settledHandoffOf()", () => {
  const markerPath = () => join(root, "state", "monitor", "s1.finalize");
  const stateNow = () =>
    writeFileSync(
      join(root, "state", "sessions", "s1.json"),
      JSON.stringify({ version: 1, session_id: "s1", task_id: "chain-s1", finalized_stamp: null, finalized_at: null }),
    );

  test("an empty marker just made: waits for the other hook's plan, then names the summary", async () => {
    stateNow();
    writeFileSync(markerPath(), ""); // made this instant, its plan not yet written
    lock(0);
    setTimeout(() => writeFileSync(markerPath(), `${JSON.stringify({ stamp: "20261202-101500" })}\n`), 150);
    const h = await settledHandoffOf(root, "s1", Date.now);
    expect(h).toEqual({ state: "writing", path: join(root, "sessions", "summary-chain-s1-20261202-101500.md") });
  });
  test("a marker with its plan, or an old empty one: read at once, no wait", async () => {
    stateNow();
    lock(0);
    writeFileSync(markerPath(), `${JSON.stringify({ stamp: "20261202-101500" })}\n`);
    const cpu = process.cpuUsage();
    let polls = 0;
    const h = await settledHandoffOf(root, "s1", () => (polls++, Date.now()));
    expect(h.state).toBe("writing");
    expect(polls).toBe(1); // only the reading's own clock: no wait loop
    marker(10_000); // empty, 10 s old: its plan is never coming
    polls = 0;
    expect(await settledHandoffOf(root, "s1", () => (polls++, Date.now()))).toEqual({ state: "writing" });
    expect(polls).toBe(1);
    expect(process.cpuUsage(cpu).user).toBeLessThan(500_000);
  });
  test("an empty marker whose plan never comes: the wait ends, the message says the summary is being written", async () => {
    stateNow();
    lock(0);
    writeFileSync(markerPath(), "");
    expect(await settledHandoffOf(root, "s1", Date.now)).toEqual({ state: "writing" });
  });
});
