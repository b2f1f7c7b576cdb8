/**
 * Issue 32, item 11: prune removed a state written while it ran (13 of 25 rounds). The old code
 * planned from one look at the session states and then removed a dropped session's state whatever
 * had happened to it since, without the session's lock: a session resumed meanwhile lost its fresh
 * state. Now each file is checked again under the session's lock (the one its writers take) before
 * it goes: a state rewritten since the plan stays, and a session whose lock is held is left for the
 * next prune.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

const DAY = 86_400_000;
let sb: ProjectSandbox;
let state: string;
beforeEach(() => {
  sb = projectSandbox();
  const dir = join(sb.project, ".ctx", "state", "sessions");
  mkdirSync(dir, { recursive: true });
  state = join(dir, "old-session.json");
  writeOld();
});
afterEach(() => sb.t.cleanup());

/** An ended session 60 days old: the default retention (30 days) drops it. */
function writeOld(): void {
  const at = new Date(Date.now() - 60 * DAY).toISOString();
  writeFileSync(
    state,
    JSON.stringify({ version: 1, session_id: "old-session", updated_at: at, last_event: "SessionEnd" }),
  );
  utimesSync(state, (Date.now() - 60 * DAY) / 1000, (Date.now() - 60 * DAY) / 1000);
}

/** Holds the session's lock with ctx's own acquireLock for `ms`, then (with `rewrite`) writes a fresh state before letting go. */
function holdLock(ms: number, rewrite: boolean) {
  const script = `
    import { acquireLock } from ${JSON.stringify(join(import.meta.dir, "..", "..", "src", "io", "fs", "lock.ts"))};
    import { renameSync, writeFileSync } from "node:fs";
    const lock = acquireLock(${JSON.stringify(`${state}.lock`)}, { timeoutMs: 10_000 });
    process.stdout.write("locked\\n");
    setTimeout(() => {
      if (${rewrite}) {
        writeFileSync(${JSON.stringify(`${state}.tmp`)}, JSON.stringify({ version: 1, session_id: "old-session", updated_at: new Date().toISOString(), last_event: "UserPromptSubmit" }));
        renameSync(${JSON.stringify(`${state}.tmp`)}, ${JSON.stringify(state)});
      }
      lock[Symbol.dispose]();
      process.stdout.write("released\\n");
    }, ${ms});`;
  const file = join(sb.t.dir, `holder-${Math.random().toString(36).slice(2)}.ts`);
  writeFileSync(file, script);
  const p = Bun.spawn([process.execPath, file], { stdout: "pipe", stderr: "inherit" });
  const reader = (p.stdout as ReadableStream<Uint8Array>).getReader();
  let out = "";
  const until = async (word: string) => {
    while (!out.includes(word)) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`holder ended before '${word}': ${out}`);
      out += new TextDecoder().decode(value);
    }
  };
  return { p, until };
}

test("a session whose lock is held is not pruned: the writer may be about to write", async () => {
  const h = holdLock(60_000, false);
  await h.until("locked");
  const r = await runCtx(["prune"], { env: sb.env, cwd: sb.project });
  expect(r.code).toBe(0);
  expect(existsSync(state)).toBe(true);
  h.p.kill();
  await h.p.exited;
  // Once the lock is free, the next prune removes it as before.
  expect((await runCtx(["prune"], { env: sb.env, cwd: sb.project })).code).toBe(0);
  expect(existsSync(state)).toBe(false);
});

test("a state written while prune waits for the session's lock survives", async () => {
  const h = holdLock(400, true); // prune plans, waits for the lock; the writer rewrites, then lets go
  await h.until("locked");
  const r = await runCtx(["prune"], { env: sb.env, cwd: sb.project });
  await h.until("released");
  expect(r.code).toBe(0);
  expect(existsSync(state)).toBe(true);
  expect(Bun.file(state).size).toBeGreaterThan(0);
  expect(await Bun.file(state).json()).toMatchObject({ last_event: "UserPromptSubmit" });
});
