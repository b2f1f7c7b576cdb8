/**
 * The minor findings of the second review: finalize's summaries, session
 * records and `-incremental.jsonl` are private (0600, like all state, in 0700
 * directories), and `ctx status` passes no bidi control or terminal escape
 * from an index entry through (one sanitiser everywhere).
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
beforeEach(() => (sb = makeSandbox()));
afterEach(() => sb.cleanup());

test("finalize writes its summary, records and incremental log 0600 in a 0700 directory", async () => {
  const sessions = join(sb.project, ".ctx", "sessions");
  const sid = "perm-session";
  mkdirSync(sessions, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(sessions, `ACTIVE-PAUSE-${sid}.jsonl`),
    `${JSON.stringify({ type: "pause_started", timestamp: new Date().toISOString(), session_id: sid, data: {}, context_percentage: 91 })}\n`,
    { mode: 0o600 },
  );
  const r = await runCtx(["finalize", "--session", sid, "--transcript", sb.transcript], {
    env: sb.env,
    cwd: sb.project,
  });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  const written = readdirSync(sessions).filter((n) => /^(summary-|session-|LATEST-SESSION)/.test(n));
  // summary .md and its .json twin, session .json, .yaml, .md, -incremental.jsonl, LATEST-SESSION.txt
  expect(written.length).toBe(7);
  for (const n of written) expect({ n, mode: statSync(join(sessions, n)).mode & 0o777 }).toEqual({ n, mode: 0o600 });
  expect(statSync(sessions).mode & 0o777).toBe(0o700);
});

test("ctx status strips bidi controls and escapes from the model and project of an entry", async () => {
  const dir = join(sb.env.XDG_STATE_HOME!, "ctx", "sessions");
  mkdirSync(dir, { recursive: true });
  const evil = "\u202eSon\u2066net\u2069\u200f\u061c\u001b[31m";
  writeFileSync(
    join(dir, "bidi.json"),
    JSON.stringify({
      version: 1,
      session_id: "bidi",
      project: `${sb.project}/\u202eevil`,
      root: join(sb.project, ".ctx"),
      state_path: join(sb.project, ".ctx", "state", "sessions", "bidi.json"),
      model: evil,
      used_pct: 40,
      used_tokens: 80000,
      window_size: 200000,
      threshold_reached: null,
      auto_pause_active: false,
      respawn: "\u202ewatching",
      updated_at: new Date().toISOString(),
    }),
  );
  const r = await runCtx(["status"], { env: { ...sb.env, NO_COLOR: "1" }, cwd: sb.project });
  expect(r.code).toBe(0);
  expect(r.stdout).toContain("Sonnet");
  expect(r.stdout).toContain("evil");
  expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/);
});
