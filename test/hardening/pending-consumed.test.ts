/**
 * Issue 32, item 13: a planted `respawn-pending.json` naming a summary ctx wrote and a session
 * already consumed injected it again into a plain `startup` session: the hook honoured a pending
 * file on any source and never asked the ledger. Now it is honoured only after `/clear`, and only
 * for a summary not yet consumed (nor older than a consumed one of its chain).
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeOwnSummary } from "../helpers/written.ts";
import { runInproc } from "./inproc.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
let ctxDir: string;
beforeEach(() => {
  sb = makeSandbox({ CTX_TRACK_FINALIZE_ON_END: "never", CTX_MONITOR_TRANSCRIPT_WAIT_MS: "0" });
  ctxDir = join(sb.project, ".ctx");
  mkdirSync(join(ctxDir, "state"), { recursive: true });
  mkdirSync(join(ctxDir, "sessions"), { recursive: true });
});
afterEach(() => sb.cleanup());

const plant = (summaryPath: string) =>
  writeFileSync(
    join(ctxDir, "state", "respawn-pending.json"),
    JSON.stringify({ version: 1, summary_path: summaryPath, created_at: new Date().toISOString(), consumed_by: null }),
  );

async function sessionStart(source: string, sid: string): Promise<string> {
  const stdin = Buffer.from(
    JSON.stringify({ session_id: sid, cwd: sb.project, hook_event_name: "SessionStart", source }),
  );
  const r = await runInproc(["resume", "--hook"], { env: sb.env, cwd: sb.project, stdin });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  return r.stdout;
}

test("a pending file naming a consumed, signed summary injects nothing, on startup or after /clear", async () => {
  const path = join(ctxDir, "sessions", "summary-t-20250101-000000.md");
  writeOwnSummary(sb.env, path, "# Summary\n- DONE-ALREADY step\n");
  // the summary is consumed once, the normal way
  expect(await sessionStart("clear", "s-first")).toContain("DONE-ALREADY");
  const ledger = JSON.parse(readFileSync(join(ctxDir, "state", "resume-ledger.json"), "utf8"));
  expect(Object.keys(ledger.consumed)).toEqual(["summary-t-20250101-000000.md"]);
  for (const [source, sid] of [
    ["startup", "s-startup"],
    ["resume", "s-resume"],
    ["clear", "s-clear"],
  ] as const) {
    plant(path);
    expect(await sessionStart(source, sid)).not.toContain("DONE-ALREADY");
  }
});

test("a pending file naming an unconsumed summary is honoured after /clear only", async () => {
  const path = join(ctxDir, "sessions", "summary-t-20250101-000000.md");
  writeOwnSummary(sb.env, path, "# Summary\n- the next step\n");
  plant(path);
  expect(await sessionStart("startup", "s-startup")).not.toContain("the next step");
  const pending = JSON.parse(readFileSync(join(ctxDir, "state", "respawn-pending.json"), "utf8"));
  expect(pending.consumed_by).toBeNull();
  expect(await sessionStart("clear", "s-clear")).toContain("the next step");
  expect(JSON.parse(readFileSync(join(ctxDir, "state", "respawn-pending.json"), "utf8")).consumed_by).toBe("s-clear");
});
