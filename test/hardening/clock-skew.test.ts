/**
 * Clock skew: a summary stamped in the future (written while the clock was
 * ahead, or committed to a repository), and an index entry updated "in 2099",
 * must not hide every later summary nor look fresh forever.
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileStamp } from "../../src/core/track/stamp.ts";
import { runInproc } from "./inproc.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";
import { writeOwnSummary } from "../helpers/written.ts";

let sb: Sandbox;
let sessions: string;
beforeEach(() => {
  sb = makeSandbox();
  sessions = join(sb.project, ".ctx", "sessions");
  mkdirSync(sessions, { recursive: true });
  mkdirSync(join(sb.project, ".ctx", "state"), { recursive: true });
});
afterEach(() => sb.cleanup());

const FUTURE = new Date("2099-12-31T00:00:00Z");
const run = (argv: string[], stdin = "") =>
  runInproc(argv, { env: sb.env, cwd: sb.project, stdin: Buffer.from(stdin) });

/** The summary stamped 2099, already consumed once (so a later /clear must move on to newer ones). */
function futureSummary(mtime: Date): void {
  const p = join(sessions, "summary-t-20991231-000000.md");
  writeOwnSummary(sb.env, p, "# Summary\n- FROM-THE-FUTURE\n");
  utimesSync(p, mtime, mtime);
  writeFileSync(
    join(sb.project, ".ctx", "state", "resume-ledger.json"),
    JSON.stringify({
      version: 1,
      consumed: { "summary-t-20991231-000000.md": { session_id: "old", via: "clear", at: "2099-12-31T00:00:00Z" } },
    }),
  );
}

function realSummary(): string {
  const name = `summary-t-${fileStamp(Date.now())}.md`;
  writeOwnSummary(sb.env, join(sessions, name), "# Summary\n- THE-REAL-NEXT-STEP\n");
  return name;
}

describe.each([
  ["written while the clock was ahead (mtime in 2099 too)", FUTURE],
  ["committed to a repository (mtime at checkout)", new Date(Date.now() - 3_600_000)],
])("a summary stamped 2099, %s", (_name, mtime) => {
  test("resume --hook after /clear injects the later real summary", async () => {
    futureSummary(mtime);
    realSummary();
    const hook = JSON.stringify({
      session_id: "s-new",
      cwd: sb.project,
      hook_event_name: "SessionStart",
      source: "clear",
    });
    const r = await run(["resume", "--hook"], hook);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("THE-REAL-NEXT-STEP");
    expect(r.stdout).not.toContain("FROM-THE-FUTURE");
  });

  test("resume --print --latest picks the later real summary", async () => {
    futureSummary(mtime);
    realSummary();
    const r = await run(["resume", "--print", "--latest"]);
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.stdout).toContain("THE-REAL-NEXT-STEP");
  });
});

describe("an index entry updated in 2099", () => {
  test("is not age 0 forever: with a future mtime too it is stale; with a plausible mtime its age is the mtime's", async () => {
    const dir = join(sb.env.XDG_STATE_HOME!, "ctx", "sessions");
    mkdirSync(dir, { recursive: true });
    const entry = (sid: string) => ({
      version: 1,
      session_id: sid,
      project: sb.project,
      root: join(sb.project, ".ctx"),
      state_path: join(sb.project, ".ctx", "state", "sessions", `${sid}.json`),
      model: "claude-sonnet-4-5",
      used_pct: 40,
      used_tokens: 80000,
      window_size: 200000,
      threshold_reached: null,
      auto_pause_active: false,
      respawn: null,
      updated_at: "2099-12-31T00:00:00.000Z",
    });
    // their sessions' state is there (a session whose state is gone is ended, not stale)
    const states = join(sb.project, ".ctx", "state", "sessions");
    mkdirSync(states, { recursive: true });
    for (const sid of ["skewed", "cloned"])
      writeFileSync(join(states, `${sid}.json`), JSON.stringify({ version: 1, session_id: sid, project: sb.project }));
    writeFileSync(join(dir, "skewed.json"), JSON.stringify(entry("skewed")));
    utimesSync(join(dir, "skewed.json"), FUTURE, FUTURE);
    writeFileSync(join(dir, "cloned.json"), JSON.stringify(entry("cloned")));
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    utimesSync(join(dir, "cloned.json"), twoDaysAgo, twoDaysAgo);
    const r = await run(["status", "--json", "--all"]);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout).sessions as { session_id: string; stale: boolean; age_s: number | null }[];
    const by = Object.fromEntries(rows.map((x) => [x.session_id, x]));
    expect(by.skewed).toMatchObject({ stale: true, age_s: null });
    expect(by.cloned!.stale).toBe(true);
    expect(by.cloned!.age_s).toBeGreaterThan(86_400);
  });
});
