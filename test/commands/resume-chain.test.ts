import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { isolatedEnv, tempDir } from "../helpers/tmp.ts";
import { writeOwnSummary } from "../helpers/written.ts";

// Issue 15: two sessions (chains) in one project; the resume hook picks the cleared session's chain.
let t: ReturnType<typeof tempDir>;
let env: Record<string, string>;
let project: string;
let root: string;
beforeEach(() => {
  t = tempDir();
  project = join(t.dir, "proj");
  root = join(project, ".ctx");
  mkdirSync(join(root, "sessions"), { recursive: true });
  mkdirSync(join(root, "state", "sessions"), { recursive: true });
  env = isolatedEnv(t.dir, { CLAUDE_PROJECT_DIR: project, CTX_DEBUG: "1" });
  mkdirSync(env.TMPDIR!, { recursive: true });
});
afterEach(() => t.cleanup());

function summary(name: string, text: string): void {
  writeOwnSummary(env, join(root, "sessions", name), text);
}
function state(sid: string, over: Record<string, unknown>): void {
  const now = new Date().toISOString();
  const s = { version: 1, session_id: sid, project, started_at: now, updated_at: now, ...over };
  writeFileSync(join(root, "state", "sessions", `${sid}.json`), JSON.stringify(s));
}
async function hook(sid: string, source: string, extra: Record<string, string> = {}) {
  const stdin = JSON.stringify({ session_id: sid, cwd: project, hook_event_name: "SessionStart", source });
  const r = await runCtx(["resume", "--hook"], { env: { ...env, ...extra }, stdin, cwd: project });
  expect(r.code).toBe(0);
  const text = r.stdout ? JSON.parse(r.stdout).hookSpecificOutput.additionalContext : "";
  return { text: text as string, debug: r.stderr };
}

test("after /clear each session gets its own chain's summary, not the newer one of the other chain", async () => {
  state("a1", { task_id: "chain-aaaa", next_session_id: "a2", last_event: "SessionEnd" });
  state("b1", { task_id: "chain-bbbb", next_session_id: "b2", last_event: "SessionEnd" });
  state("a2", { task_id: "chain-aaaa", previous_session_id: "a1" });
  state("b2", { task_id: "chain-bbbb", previous_session_id: "b1" });
  summary("summary-chain-aaaa-20250101-100000.md", "the alpaca exporter");
  summary("summary-chain-bbbb-20250101-110000.md", "the bison importer");
  const a = await hook("a2", "clear");
  expect(a.text).toContain("the alpaca exporter");
  expect(a.text).not.toContain("bison");
  expect(a.debug).toContain("chain chain-aaaa (cleared session a1)");
  expect(a.debug).toContain("(rule: chain)");
  const b = await hook("b2", "clear");
  expect(b.text).toContain("the bison importer");
  // After a compaction: the session's own chain, once.
  summary("summary-chain-aaaa-20250101-120000.md", "alpaca, later");
  expect((await hook("a2", "compact")).text).toContain("alpaca, later");
  expect((await hook("a2", "compact")).text).toBe("");
  const ledger = JSON.parse(readFileSync(join(root, "state", "resume-ledger.json"), "utf8")).consumed;
  expect(ledger["summary-chain-bbbb-20250101-110000.md"]).toMatchObject({ session_id: "b2", task_id: "chain-bbbb" });
});

test("waits for the cleared session's summary that its finalize is still writing", async () => {
  summary("summary-chain-aaaa-20250101-100000.md", "stale alpaca");
  await Bun.sleep(20); // the session did more after that summary
  state("a1", { task_id: "chain-aaaa", auto_pause_active: true, last_event: "SessionEnd" });
  state("a2", { task_id: "chain-aaaa", previous_session_id: "a1" });
  summary("summary-chain-bbbb-20250101-110000.md", "the bison importer");
  const later = Bun.sleep(600).then(() => summary("summary-chain-aaaa-20250101-120000.md", "fresh alpaca"));
  const a = await hook("a2", "clear");
  await later;
  expect(a.text).toContain("fresh alpaca");
});

test("no link: the fallback never takes a summary of a live chain; a plain startup only hints", async () => {
  state("b1", { task_id: "chain-bbbb", last_event: "Stop" }); // live
  summary("summary-chain-aaaa-20250101-100000.md", "the alpaca exporter");
  summary("summary-chain-bbbb-20250101-110000.md", "the bison importer");
  const s = await hook("x1", "startup");
  expect(s.text).toContain("ctx resume --latest");
  expect(s.text).not.toContain("bison importer");
  const c = await hook("x2", "clear");
  expect(c.text).toContain("the alpaca exporter");
  expect(c.debug).toContain("(rule: fallback)");
});

test("stops waiting when the cleared session's finalize lets go of its lock without a summary", async () => {
  summary("summary-chain-aaaa-20250101-100000.md", "stale alpaca");
  await Bun.sleep(20);
  state("a1", { task_id: "chain-aaaa", auto_pause_active: true, last_event: "SessionEnd" });
  state("a2", { task_id: "chain-aaaa", previous_session_id: "a1" });
  const lock = join(root, "state", "sessions", "a1.json.finalize.lock");
  writeFileSync(lock, "");
  const failed = Bun.sleep(400).then(() => rmSync(lock));
  const a = await hook("a2", "clear");
  await failed;
  // The chain's newest summary is still better than nothing; well before the 10 s default.
  expect(a.text).toContain("stale alpaca");
  // the hook's own count of its sleeps (CTX_DEBUG prints it): it stopped waiting when the finalize ended
  expect(Number(/waited (\d+) ms/.exec(a.debug)?.[1])).toBeLessThan(6000);
  expect(a.debug).toContain("did not appear");
});

test("a summary written at CRITICAL that the session went on after: /clear waits for its refresh", async () => {
  const name = "summary-chain-aaaa-20250101-100000.md";
  const atCritical = new Date(Date.now() - 60_000).toISOString();
  summary(name, "alpaca at CRITICAL");
  const critical = {
    task_id: "chain-aaaa",
    threshold_reached: "critical",
    finalized_stamp: "20250101-100000",
    finalized_at: atCritical,
    last_event: "SessionEnd",
  };
  state("a1", critical); // updated_at now: it went on after the summary
  state("a2", { task_id: "chain-aaaa", previous_session_id: "a1" });
  // The SessionEnd finalize rewrites the same summary and stamps finalized_at after the last step.
  const refresh = Bun.sleep(600).then(() => {
    summary(name, "alpaca at CRITICAL, and the last step after it");
    state("a1", { ...critical, finalized_at: new Date(Date.now() + 1000).toISOString() });
  });
  const a = await hook("a2", "clear");
  await refresh;
  expect(a.text).toContain("alpaca at CRITICAL, and the last step after it");
});

test("a summary that is the session's last word is injected at once; finalize_on_end never skips the wait", async () => {
  const name = "summary-chain-aaaa-20250101-100000.md";
  summary(name, "alpaca, complete");
  const now = new Date().toISOString();
  const done = { task_id: "chain-aaaa", threshold_reached: "critical", finalized_stamp: "20250101-100000" };
  state("a1", { ...done, finalized_at: now, updated_at: now, last_event: "SessionEnd" });
  state("a2", { task_id: "chain-aaaa", previous_session_id: "a1" });
  const a = await hook("a2", "clear");
  expect(a.text).toContain("alpaca, complete");
  expect(a.debug).not.toContain("did not appear");
  state("b1", { ...done, task_id: "chain-bbbb", finalized_at: new Date(Date.now() - 60_000).toISOString() });
  state("b2", { task_id: "chain-bbbb", previous_session_id: "b1" });
  summary("summary-chain-bbbb-20250101-100000.md", "bison, stale");
  env.CTX_TRACK_FINALIZE_ON_END = "never";
  const b = await hook("b2", "clear");
  expect(b.text).toContain("bison, stale");
  expect(b.debug).not.toContain("did not appear");
});

test("when the cleared session's SessionEnd never refreshed its CRITICAL summary, the hook starts that finalize", async () => {
  const transcript = join(import.meta.dir, "..", "fixtures", "transcripts", "track-basic.jsonl");
  const event = (name: string, over: Record<string, unknown> = {}) =>
    JSON.stringify({ session_id: "a1", transcript_path: transcript, cwd: project, hook_event_name: name, ...over });
  expect(
    (await runCtx(["track"], { env, stdin: event("SessionStart", { source: "startup" }), cwd: project })).code,
  ).toBe(0);
  const fin = await runCtx(["finalize", "--session", "a1"], { env, cwd: project });
  expect(fin.code).toBe(0);
  const path = fin.stdout.trim();
  writeFileSync(path, "# Handoff summary\nSTALE-AT-CRITICAL\n"); // what it said at CRITICAL
  const a1 = JSON.parse(readFileSync(join(root, "state", "sessions", "a1.json"), "utf8"));
  // It went on after that summary, at CRITICAL; its SessionEnd hook never ran (cut short).
  const ago = (s: number) => new Date(Date.now() - s * 1000).toISOString();
  writeFileSync(
    join(root, "state", "sessions", "a1.json"),
    JSON.stringify({
      ...a1,
      threshold_reached: "critical",
      finalized_at: ago(10),
      updated_at: ago(5),
      last_event: "Stop",
    }),
  );
  state("a2", { task_id: a1.task_id, previous_session_id: "a1" });
  // The finalize the hook starts must end within the hook's wait: 10 s by default, which a loaded test machine
  // (seven test runs on two cores) can exceed; the budget is not what this test is about.
  const a = await hook("a2", "clear", { CTX_RESUME_FINALIZE_WAIT_MS: "60000" });
  expect(a.debug).toContain("resume hook: refreshing the summary of a1: true");
  expect(a.text).not.toContain("STALE-AT-CRITICAL");
  expect(a.text).toContain("Please create hello.txt");
  expect(readFileSync(path, "utf8")).toContain("Please create hello.txt");
}, 90_000);
