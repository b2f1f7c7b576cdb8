/**
 * Crash safety: hooks killed with -9 at random points during hundreds of
 * writes leave every state file parseable and lose no completed update; a
 * lock left behind by a killed process is taken over within its timeout.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { FUZZ_SEED, rngFor } from "./fuzz-rng.ts";
import { makeSandbox, waitForStrays, type Sandbox } from "./sandbox.ts";

const KILLS = Number(process.env.CTX_CRASH_KILLS ?? 300);
const PARALLEL = 4;
const SID = "crash-session";

let sb: Sandbox;
beforeAll(() => {
  sb = makeSandbox({ CTX_TRACK_FINALIZE_ON_END: "never", CTX_MONITOR_DEBOUNCE_CALLS: "2" });
  console.log(`crash: seed ${FUZZ_SEED}, ${KILLS} runs killed with -9 at random points`);
});
afterAll(async () => {
  await waitForStrays(sb.dir);
  sb.cleanup();
});

function bridge(usedPct: number): void {
  writeFileSync(
    join(sb.env.TMPDIR!, `claude-ctx-${SID}.json`),
    JSON.stringify({
      session_id: SID,
      used_pct: usedPct,
      remaining_percentage: 100 - usedPct,
      timestamp: Date.now() / 1000,
      used_tokens: usedPct * 2000,
      context_window_size: 200000,
    }),
  );
}

function payload(cmd: string, i: number): string {
  if (cmd === "statusline")
    return JSON.stringify({
      session_id: SID,
      cwd: sb.project,
      model: { id: "claude-sonnet-4-5", display_name: "Sonnet" },
      workspace: { current_dir: sb.project, project_dir: sb.project },
      context_window: {
        context_window_size: 200000,
        current_usage: { input_tokens: 180000 + i },
        used_percentage: 91,
        remaining_percentage: 9,
      },
    });
  return JSON.stringify({
    session_id: SID,
    transcript_path: sb.transcript,
    cwd: sb.project,
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: `echo ${i}` },
    tool_response: { stdout: "x".repeat(i % 50) },
  });
}

/** Temp files of writes interrupted by a kill (they never replace a state file). */
let leftoverTemps = 0;

/** Every JSON state file under the sandbox (not the temp files of interrupted writes). */
function stateFiles(): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else if (name.endsWith(".json") && !name.startsWith(".")) out.push(p);
      else if (name.endsWith(".tmp")) leftoverTemps++;
    }
  };
  walk(join(sb.project, ".ctx"));
  walk(join(sb.env.XDG_STATE_HOME!, "ctx"));
  walk(sb.env.TMPDIR!);
  return out;
}

function toolCalls(): number {
  return JSON.parse(readFileSync(join(sb.project, ".ctx", "state", "sessions", `${SID}.json`), "utf8")).tool_calls;
}

function monitorUpdated(): number {
  try {
    return JSON.parse(readFileSync(join(sb.project, ".ctx", "state", "monitor", `${SID}.json`), "utf8")).updated_ms;
  } catch {
    return 0;
  }
}

describe("crash safety", () => {
  test(`${KILLS} hook runs killed with -9 at random points: every state file parses, no completed update is lost`, async () => {
    bridge(91); // auto-pause: track writes the state, its copy, the index, the ledger and the pause log
    const rng = rngFor("crash");
    // Kills land within twice the time one status-line run takes on this machine now (at least 40 ms), so a loaded
    // machine does not turn every run into a kill before start-up.
    const warmStart = performance.now();
    await Bun.spawn([CTX_BIN, "statusline"], {
      stdin: new Blob([payload("statusline", -1)]),
      env: sb.env,
      stdout: "ignore",
    }).exited;
    const killWindow = Math.max(40, (performance.now() - warmStart) * 2);
    let completedTrack = 0;
    let startedTrack = 0;
    for (let at = 0; at < KILLS; at += PARALLEL) {
      await Promise.all(
        Array.from({ length: PARALLEL }, async (_, k) => {
          const cmd = rng.pick(["track", "track", "monitor", "statusline"]);
          if (cmd === "track") startedTrack++;
          const proc = Bun.spawn([CTX_BIN, cmd], {
            stdin: new Blob([payload(cmd, at + k)]),
            stdout: "ignore",
            stderr: "ignore",
            env: sb.env,
            cwd: sb.project,
          });
          const delay = rng.next() * killWindow; // from start-up to the last write of a run
          const timer = setTimeout(() => proc.kill(9), delay);
          const code = await proc.exited;
          clearTimeout(timer);
          if (cmd === "track" && code === 0) completedTrack++;
        }),
      );
    }
    // A file a finalize the killed hooks started in the background pruned after the listing is gone, not
    // torn: only a file that is there and does not parse is broken (with the reason, to tell them apart).
    const broken = stateFiles().flatMap((p) => {
      try {
        JSON.parse(readFileSync(p, "utf8"));
        return [];
      } catch (err) {
        return (err as NodeJS.ErrnoException).code === "ENOENT" ? [] : [`${p}: ${(err as Error).message}`];
      }
    });
    expect(broken).toEqual([]);
    // One more run after the carnage: it must get through any lock the killed runs left.
    const r = await runCtx(["track"], { stdin: payload("track", 0), env: sb.env, cwd: sb.project, countWaits: true });
    expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
    expect(r.waited!.sleptMs).toBeLessThan(15_000); // counted by ctx: no lock waited out to its end
    const calls = toolCalls();
    console.log(
      `crash: ${startedTrack} track runs started, ${completedTrack} completed, tool_calls ${calls - 1} before the last run, ${leftoverTemps} temp files of interrupted writes left`,
    );
    expect(calls - 1).toBeGreaterThanOrEqual(completedTrack);
    expect(calls - 1).toBeLessThanOrEqual(startedTrack);
  }, 180_000);

  test("a lock held by a process killed with -9 is taken over at once, well within the lock timeout", async () => {
    bridge(70);
    const state = join(sb.project, ".ctx", "state");
    const locks = [join(state, "sessions", `${SID}.json.lock`), join(state, "monitor", `${SID}.json.lock`)];
    mkdirSync(join(state, "monitor"), { recursive: true });
    const holder = Bun.spawn([process.execPath, join(import.meta.dir, "lock-holder.ts"), ...locks], {
      stdout: "pipe",
      stderr: "inherit",
    });
    const reader = holder.stdout.getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe("locked\n");
    holder.kill(9);
    await holder.exited;
    const before = toolCalls();
    const monitorBefore = monitorUpdated();
    const [t, m] = await Promise.all([
      runCtx(["track"], { stdin: payload("track", 1), env: sb.env, cwd: sb.project, countWaits: true }),
      runCtx(["monitor"], { stdin: payload("monitor", 1), env: sb.env, cwd: sb.project, countWaits: true }),
    ]);
    expect([t.code, m.code, t.stderr, m.stderr]).toEqual([0, 0, "", ""]);
    expect(toolCalls()).toBe(before + 1);
    expect(monitorUpdated()).toBeGreaterThan(monitorBefore); // the monitor's update went through too
    // the back-off each slept, as ctx counts it: the monitor's lock timeout is 3 s, track's lock waits share 8 s
    expect(Math.max(t.waited!.sleptMs, m.waited!.sleptMs)).toBeLessThan(2000);
  }, 30_000);

  test("a lock left empty (holder killed between create and write) or stamped long ago is taken over within its timeout", async () => {
    const lock = join(sb.project, ".ctx", "state", "sessions", `${SID}.json.lock`);
    for (const content of ["", `${process.pid} ${Date.now() - 60 * 60_000} stale`]) {
      writeFileSync(lock, content);
      const old = new Date(Date.now() - 5_000);
      utimesSync(lock, old, old);
      const before = toolCalls();
      const r = await runCtx(["track"], { stdin: payload("track", 2), env: sb.env, cwd: sb.project, countWaits: true });
      expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
      expect(r.waited!.sleptMs).toBeLessThan(3000); // taken over within one lock timeout, as ctx counts it
      expect(toolCalls()).toBe(before + 1);
    }
  }, 60_000);
});
