/**
 * Concurrency through the compiled binary: 64 `ctx track` and 64 `ctx monitor`
 * calls for one session at the same time lose no update and print no
 * duplicate warning, alone, while `ctx status --watch` and `ctx finalize`
 * run against the same session, and while a live process holds the session's
 * locks past the old 10 s staleness limit (the calls queue behind it, within
 * the timeouts the hooks are registered with).
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ctxHooks } from "../../src/core/settings/entries.ts";
import { CTX_BIN, runCtx, type CtxRun } from "../helpers/ctx.ts";
import { makeSandbox, waitForStrays, type Sandbox } from "./sandbox.ts";

const N = 64;
const SID = "conc-session";

let sb: Sandbox;
let holder: { kill(signal: number): void; exited: Promise<number> } | undefined; // a lock holder to end
beforeEach(() => {
  // One warning per session and level: with a debounce this long, a second WARNING is a duplicate.
  sb = makeSandbox({ CTX_MONITOR_DEBOUNCE_CALLS: "100000", CTX_TRACK_FINALIZE_ON_END: "never", NO_COLOR: "1" });
  // 72 % used: the warning level (65 %) for the monitor and track alike.
  writeFileSync(
    join(sb.env.TMPDIR!, `claude-ctx-${SID}.json`),
    JSON.stringify({
      session_id: SID,
      used_pct: 72,
      remaining_percentage: 28,
      timestamp: Date.now() / 1000,
      used_tokens: 144000,
      context_window_size: 200000,
      model: "claude-sonnet-4-5",
    }),
  );
});
afterEach(async () => {
  holder?.kill(9);
  await holder?.exited;
  holder = undefined;
  await waitForStrays(sb.dir);
  sb.cleanup();
});

function hook(event: string, i: number): string {
  return JSON.stringify({
    session_id: SID,
    transcript_path: sb.transcript,
    cwd: sb.project,
    hook_event_name: event,
    tool_name: "Bash",
    tool_input: { command: `echo ${i}` },
    tool_response: { stdout: `${i}\n` },
  });
}

/** The timeout (ms) Claude Code kills a hook after, as `ctx install` registers it. */
function registered(sub: "track" | "monitor"): number {
  return ctxHooks("claude").find((h) => h.sub === sub)!.timeout * 1000;
}

/** Starts N track and N monitor calls at once, each killed after `timeout(sub)` ms; returns their runs. */
async function storm(timeout: (sub: "track" | "monitor") => number = () => 60_000): Promise<{
  track: CtxRun[];
  monitor: CtxRun[];
}> {
  const run = (sub: "track" | "monitor", i: number) =>
    runCtx([sub], { stdin: hook("PostToolUse", i), env: sb.env, cwd: sb.project, timeoutMs: timeout(sub) });
  const calls = Array.from({ length: N }, (_, i) => [run("track", i), run("monitor", i)]);
  const runs = await Promise.all(calls.flat());
  return { track: runs.filter((_, k) => k % 2 === 0), monitor: runs.filter((_, k) => k % 2 === 1) };
}

function expectExact(r: { track: CtxRun[]; monitor: CtxRun[] }): void {
  for (const run of [...r.track, ...r.monitor])
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: "" });
  const warnings = r.monitor.filter((m) => m.stdout.includes("CONTEXT WARNING"));
  expect(warnings.length).toBe(1);
  expect(r.monitor.filter((m) => m.stdout !== "" && !m.stdout.includes("CONTEXT WARNING"))).toEqual([]);
  const reports = r.track.filter((t) => t.stdout !== "");
  expect(reports.length).toBe(1);
  expect(JSON.parse(reports[0]!.stdout).systemMessage).toContain("72%");
  const state = JSON.parse(readFileSync(join(sb.project, ".ctx", "state", "sessions", `${SID}.json`), "utf8"));
  expect(state.tool_calls).toBe(N);
  expect(state.threshold_reached).toBe("warning");
  const debounce = JSON.parse(readFileSync(join(sb.project, ".ctx", "state", "monitor", `${SID}.json`), "utf8"));
  expect({ fired: debounce.fired, calls_since: debounce.calls_since }).toEqual({ fired: 1, calls_since: N - 1 });
  const index = JSON.parse(readFileSync(join(sb.env.XDG_STATE_HOME!, "ctx", "sessions", `${SID}.json`), "utf8"));
  expect(index.session_id).toBe(SID);
}

describe("concurrency", () => {
  test(`${N} simultaneous track and ${N} monitor calls for one session: no lost update, one warning, one level report`, async () => {
    expectExact(await storm());
  }, 120_000);

  test("the same while ctx status --watch and ctx finalize run on the same session", async () => {
    const watch = Bun.spawn([CTX_BIN, "status", "--watch", "--interval", "0.1", "--all"], {
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
      env: sb.env,
      cwd: sb.project,
    });
    const finalizes = Array.from({ length: 4 }, (_, i) =>
      Bun.sleep(i * 150).then(() =>
        runCtx(["finalize", "--session", SID, "--transcript", sb.transcript, "--project", sb.project], {
          env: sb.env,
          cwd: sb.project,
          timeoutMs: 60_000,
        }),
      ),
    );
    const r = await storm();
    const fin = await Promise.all(finalizes);
    watch.kill("SIGINT");
    const [watchOut, watchErr, watchCode] = await Promise.all([
      new Response(watch.stdout).text(),
      new Response(watch.stderr).text(),
      watch.exited,
    ]);
    expectExact(r);
    for (const f of fin) expect({ code: f.code, stderr: f.stderr }).toEqual({ code: 0, stderr: "" });
    expect(fin[0]!.stdout).toMatch(/summary-.*\.md\n$/);
    expect(watchErr).toBe("");
    expect([0, 130]).toContain(watchCode);
    expect(watchOut).toContain(SID.slice(0, 8));
  }, 120_000);

  test(`${N} track and ${N} monitor calls queued behind a live holder for 12 s: every update recorded, the holder's locks never broken`, async () => {
    // Every track call waits longer than 10 s for the session's state lock, the token ledger and the
    // index entry (a lock stamped when its owner began to wait then looked stale once taken, and the
    // waiters broke one another's locks: 32 to 61 of 64 tool calls were recorded), while the monitor
    // calls queue on their debounce lock. Each call is killed after the timeout its hook is registered with.
    const ctx = join(sb.project, ".ctx");
    const index = join(sb.env.XDG_STATE_HOME!, "ctx", "sessions");
    for (const d of [join(ctx, "state", "sessions"), join(ctx, "state", "monitor"), index])
      mkdirSync(d, { recursive: true });
    const held = [
      `${join(ctx, "state", "sessions", `${SID}.json.lock`)}@12000`,
      `${join(ctx, "token-ledger.json.lock")}@12000`,
      `${join(index, `${SID}.json.lock`)}@12000`,
    ];
    const holder = Bun.spawn([process.execPath, join(import.meta.dir, "lock-holder.ts"), ...held], {
      stdout: "pipe",
      stderr: "inherit",
    });
    const reader = holder.stdout.getReader();
    let said = "";
    const readUntil = async (end: (text: string) => boolean) => {
      while (!end(said)) {
        const chunk = await reader.read();
        if (chunk.done) break;
        said += new TextDecoder().decode(chunk.value);
      }
    };
    await readUntil((text) => text.includes("locked\n")); // the calls start once it holds every lock
    const r = await storm(registered);
    await readUntil(() => false);
    expect(await holder.exited).toBe(0);
    const state = JSON.parse(readFileSync(join(ctx, "state", "sessions", `${SID}.json`), "utf8"));
    expect(state.tool_calls).toBe(N);
    const verdicts = said.split("\n").filter((l) => l.startsWith("broken") || l.startsWith("kept"));
    expect(verdicts.sort()).toEqual(held.map((h) => `kept ${h.split("@")[0]}`).sort());
    expectExact(r);
    const ledger = JSON.parse(readFileSync(join(ctx, "token-ledger.json"), "utf8"));
    expect(Object.keys(ledger.tasks)).toHaveLength(1);
  }, 120_000);

  test("a call whose lock a live holder keeps past its budget gives up inside its registered timeout: exit 0, the error logged, little CPU", async () => {
    const ctx = join(sb.project, ".ctx");
    for (const d of [join(ctx, "state", "sessions"), join(ctx, "state", "monitor")]) mkdirSync(d, { recursive: true });
    const held = [
      join(ctx, "state", "sessions", `${SID}.json.lock`),
      join(ctx, "state", "monitor", `${SID}.json.lock`),
    ];
    const h = Bun.spawn([process.execPath, join(import.meta.dir, "lock-holder.ts"), ...held], { stdout: "pipe" });
    holder = h;
    expect(new TextDecoder().decode((await h.stdout.getReader().read()).value)).toBe("locked\n");
    const call = (sub: "track" | "monitor") =>
      Bun.spawn([CTX_BIN, sub], {
        stdin: new Blob([hook("PostToolUse", 0)]),
        stdout: "pipe",
        stderr: "pipe",
        env: sb.env,
        cwd: sb.project,
        timeout: registered(sub), // what the client does to a hook past its timeout
      });
    const procs = [call("track"), call("monitor")];
    const outs = await Promise.all(procs.map((p) => new Response(p.stdout).text()));
    expect(await Promise.all(procs.map((p) => p.exited))).toEqual([0, 0]);
    // track: the holder's own call decides and reports. monitor: a live holder must not silence the
    // warning, so it warns without its debounce (issue 32, item 12).
    expect(outs[0]).toBe("");
    expect(JSON.parse(outs[1]!).hookSpecificOutput.additionalContext).toContain("CONTEXT WARNING");
    const log = readFileSync(join(sb.env.XDG_STATE_HOME!, "ctx", "errors.log"), "utf8");
    expect(log).toContain(`ctx track: Error: timed out waiting for lock ${held[0]}`);
    // Waiting costs little: the track call waited 20 s, the monitor 6 s.
    for (const p of procs) expect(p.resourceUsage()!.cpuTime.total).toBeLessThan(1_000_000);
  }, 60_000);
});
