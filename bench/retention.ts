/**
 * What months of use cost the commands that read ctx's state: `ctx status`, and the SessionStart
 * hooks (`ctx track` and `ctx resume --hook`), with 5,000 sessions and 2,000 summaries against
 * the same commands with 10 sessions and 4 summaries (the baseline), measured interleaved in this
 * run; and how many files `ctx prune` leaves with the default retention.
 */
import { mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { populate } from "../test/helpers/populate.ts";
import { CTX, medians, sandbox, timeOnce, type Row } from "./lib.ts";

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const DAY = 86_400_000;

/** One sandbox with `sessions` sessions over 60 days and `summaries` summaries; its SessionStart payloads. */
function world(sessions: number, summaries: number) {
  const { root, env } = sandbox();
  const project = join(root, "proj");
  mkdirSync(project, { recursive: true });
  const nowMs = Date.now();
  // 5,000 sessions over 60 days (one every ~17 minutes), five per chain, the newest ten still running.
  populate(project, env, { sessions, perChain: 5, summaries, stepMs: (60 * DAY) / 5000, nowMs, live: 10 });
  const input = (source: string, sid: string) => {
    const f = join(root, `start-${source}.json`);
    const payload = { session_id: sid, cwd: project, hook_event_name: "SessionStart", source };
    writeFileSync(f, JSON.stringify({ ...payload, transcript_path: join(root, "none.jsonl") }));
    return f;
  };
  const empty = join(root, "empty.json");
  writeFileSync(empty, "");
  // A parent named `claude` (a shell), as Claude Code runs its hooks: after /clear the hooks look
  // for the session this process ran before (ctx track links it, ctx resume --hook follows it).
  mkdirSync(join(root, "bin"));
  symlinkSync("/bin/sh", join(root, "bin", "claude"));
  return {
    env: { ...env, CLAUDE_PROJECT_DIR: project } as Record<string, string>,
    project,
    root,
    empty,
    startup: input("startup", "bench-new-session"),
    clear: input("clear", "bench-cleared-session"),
  };
}

type World = ReturnType<typeof world>;

/** The commands, each as a timed run in world `w`. */
function commands(w: World): Record<string, () => number> {
  // `; true` keeps the shell as ctx's parent (no exec of the last command).
  const underClaude = (cmd: string, input: string) =>
    timeOnce([join(w.root, "bin", "claude"), "-c", `${CTX} ${cmd}; true`], input, w.env, w.project);
  return {
    status: () => timeOnce([CTX, "status"], w.empty, w.env, w.project),
    track: () => timeOnce([CTX, "track"], w.startup, w.env, w.project),
    trackClear: () => underClaude("track", w.clear),
    resumeStartup: () => timeOnce([CTX, "resume", "--hook"], w.startup, w.env, w.project),
    // Each run injects a summary: the ledger is reset first, so every run decides the same.
    resumeClear: () => {
      rmSync(join(w.project, ".ctx", "state", "resume-ledger.json"), { force: true });
      return underClaude("resume --hook", w.clear);
    },
  };
}

const LABELS: Record<string, { figure: string; targetMs: number }> = {
  status: { figure: "`ctx status`", targetMs: 300 },
  track: { figure: "`ctx track` on SessionStart (startup)", targetMs: 200 },
  trackClear: { figure: "`ctx track` on SessionStart (clear, under a `claude` process)", targetMs: 200 },
  resumeStartup: { figure: "`ctx resume --hook` on SessionStart (startup)", targetMs: 200 },
  resumeClear: { figure: "`ctx resume --hook` on SessionStart (clear, under a `claude` process)", targetMs: 200 },
};

/** The rows: each command at 5,000 sessions and 2,000 summaries, as ms and as a ratio to the baseline. */
export function benchRetention(): Row[] {
  // Background pruning would change the big world between runs: it is switched off while timing.
  const big = world(5000, 2000);
  const small = world(10, 4);
  for (const w of [big, small]) {
    w.env.CTX_RETENTION_MAX_AGE_DAYS = "off";
    w.env.CTX_RETENTION_KEEP_PER_CHAIN = "off";
  }
  const b = commands(big);
  const s = commands(small);
  const cands: Record<string, () => number> = {};
  for (const k of Object.keys(b)) {
    cands[`big:${k}`] = b[k]!;
    cands[`small:${k}`] = s[k]!;
  }
  const m = medians(cands, RUNS);
  for (const w of [big, small]) rmSync(w.root, { recursive: true, force: true });
  const rows: Row[] = Object.keys(b).map((k) => {
    const ms = m[`big:${k}`]!;
    const base = m[`small:${k}`]!;
    return {
      figure: `${LABELS[k]!.figure}, 5,000 sessions and 2,000 summaries vs 10 and 4 (${ms.toFixed(1)} ms vs ${base.toFixed(1)} ms)`,
      measured: `${ms.toFixed(0)} ms (${(ms / base).toFixed(2)}x)`,
      target: `<= ${LABELS[k]!.targetMs} ms`,
      pass: ms <= LABELS[k]!.targetMs,
    };
  });
  rows.push(pruneRow());
  return rows;
}

/** `ctx prune` with the default retention on the big world: what is left. */
function pruneRow(): Row {
  const w = world(5000, 2000);
  const count = () =>
    readdirSync(join(w.env.XDG_STATE_HOME!, "ctx", "sessions")).length +
    readdirSync(join(w.project, ".ctx", "sessions")).length;
  const before = count();
  const t = timeOnce([CTX, "prune"], w.empty, w.env, w.project);
  const after = count();
  rmSync(w.root, { recursive: true, force: true });
  return {
    figure: `\`ctx prune\`, default retention, 5,000 sessions over 60 days: index entries and records left (${(t / 1000).toFixed(2)} s)`,
    measured: `${before} → ${after} files`,
    target: "fewer files",
    pass: after < before,
  };
}

if (import.meta.main) {
  const { table } = await import("./lib.ts");
  console.log(table(benchRetention()));
}
