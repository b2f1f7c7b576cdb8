import { randomBytes, randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Deps, Env } from "../core/deps.ts";
import { stateRoot } from "../core/paths.ts";
import { claudeArgs } from "../core/resume/command.ts";
import {
  classifyLeg,
  legCount,
  nextAfter,
  RUN_EXIT,
  type LegEnd,
  type Next,
  type RunProgress,
} from "../core/run/decide.ts";
import { parseRunArgs, type RunOptions } from "../core/run/options.ts";
import { doneLine, endLine, nextLine, startLine, type LegReport, type RunReport } from "../core/run/report.ts";
import { ownOutputFiles } from "../io/run/outputs.ts";
import { RUN_SESSION_VAR } from "../core/run/stop.ts";
import { isValidTaskId } from "../core/track/stamp.ts";
import { loadConfig } from "../io/config.ts";
import { waitForWindow } from "../io/run/window-wait.ts";
import { findProject } from "../io/project.ts";
import { findClaude } from "../io/resume/claude-launch.ts";
import { legPrompt, legSession } from "../io/run/chain.ts";
import { runLeg, waitOut } from "../io/run/leg.ts";
import { finalize } from "./finalize.ts";

declare const CTX_VERSION: string | undefined;
/** The version baked in by build.ts, as `ctx --version` prints it. */
const VERSION = typeof CTX_VERSION === "string" ? CTX_VERSION : "0.0.0-dev";

/** The first wait at a usage limit that gives no reset time (API-key users): it doubles each time. */
const LIMIT_BACKOFF_MS = 60_000;

/**
 * `ctx run -p "<prompt>" [options] [-- <claude args>]`: a headless chain of `claude -p` legs, each ended at
 * the restart level, summarised and followed by one from the resume prompt (docs/run.md; exit codes RUN_EXIT).
 */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const opts = parseRunArgs(argv);
  const project = findProject(deps.env, deps.cwd);
  const root = stateRoot(deps.env, project);
  const cfg = loadConfig(deps, project);
  const restartAt = opts.restartAt ?? cfg["respawn.restart_at"];
  const bin = findClaude(deps.env, deps.cwd);
  const env = chainEnv(deps.env, opts);
  const say = (line: string) => deps.stderr(`${line}\n`);
  const limits = { ...opts, backoffMs: LIMIT_BACKOFF_MS };
  let p: RunProgress = { startedAt: deps.now(), legs: [], limitsInARow: 0, noProgress: 0 };
  const reports: LegReport[] = [];
  // the run's own output files (`> ctx-run.json 2> ctx-run.err`) are no work of a leg
  const ignored = ownOutputFiles();
  let prompt = opts.prompt;
  let previous: string | undefined;
  let retry = false;
  let warned = false;
  for (;;) {
    const n = legCount(p) + 1;
    const sid = randomUUID();
    // The run ends and continues its legs itself: the mod's in-client cycle stays off in them (docs/run.md).
    const legEnv: Env = { ...env, [RUN_SESSION_VAR]: sid, CTX_RESPAWN_IN_CLIENT: "0" };
    if (previous) legEnv.CTX_RESUMED_FROM = previous;
    if (!(await waitForWindow(deps.env, deps.now, cfg, say)))
      return finish(deps, opts, env, reports, p, { type: "failed", detail: "interrupted" });
    say(startLine(n, sid, retry));
    const startedAt = deps.now();
    const args = claudeArgs(["-p", "--session-id", sid, "--output-format", "json", ...opts.passthrough], prompt);
    const proc = await runLeg([bin, ...args], deps.cwd, legEnv, p.startedAt + opts.maxTimeMs - startedAt);
    const end: LegEnd = proc.timedOut
      ? { kind: "brake", detail: "the wall time ran out during the leg (--max-time)" }
      : classifyLeg(proc.code, proc.stdout, deps.now());
    const state = legSession(root, sid, deps.now());
    if (!state.tracked && !warned) {
      warned = true;
      say(`ctx run: ctx's hooks did not run in leg ${n}: legs are not ended at the restart level (run ctx install)`);
    }
    say(endLine(n, end, state.usedPct, restartAt));
    const leg = { n, end, toolCalls: state.toolCalls };
    p = { ...p, legs: [...p.legs, leg] };
    const decided = nextAfter(p, leg, deps.now(), limits);
    p = decided.p;
    const next = decided.next;
    const report = legReport(n, sid, end, proc.code, state, startedAt, deps.now());
    reports.push(report);
    const resetsAt = end.kind === "limit" ? end.hit.resetsAt : undefined;
    const line = nextLine(next, resetsAt);
    if (line) say(line);
    // However the run ends, the last leg leaves a summary (a workflow uploads .ctx/sessions/)
    const end_ = (how: Next): number => {
      report.summary ??= summarise(sid, project, deps, ignored, prompt);
      return finish(deps, opts, env, reports, p, how);
    };
    if (next.type === "wait") {
      if (!(await waitOut(next.ms))) return end_({ type: "failed", detail: "interrupted" });
      report.waited_s = Math.round(next.ms / 1000);
    }
    if (next.type !== "leg" && next.type !== "wait") return end_(next);
    retry = !next.finalize;
    if (!next.finalize) continue;
    const summary = summarise(sid, project, deps, ignored);
    if (!summary) return finish(deps, opts, env, reports, p, { type: "failed", detail: `no summary of leg ${n}` });
    report.summary = summary;
    say(`ctx run: leg ${n} summary ${summary}`);
    const nextPrompt = legPrompt(root, opts.prompt, summary, env, deps.now());
    if (nextPrompt === undefined)
      return finish(deps, opts, env, reports, p, { type: "failed", detail: `cannot read ${summary}` });
    prompt = nextPrompt;
    previous = sid;
  }
}

// --- internal ---

/** The chain every leg shares: `CTX_TASK_ID` (kept when set, else `run-<8 hex>`) and the client's task list. */
function chainEnv(base: Env, opts: RunOptions): Env {
  const task = isValidTaskId(base.CTX_TASK_ID) ? base.CTX_TASK_ID : `run-${randomBytes(4).toString("hex")}`;
  const list = isValidTaskId(base.CLAUDE_CODE_TASK_LIST_ID) ? base.CLAUDE_CODE_TASK_LIST_ID : task;
  const env: Env = { ...base, CTX_TASK_ID: task, CLAUDE_CODE_TASK_LIST_ID: list };
  delete env.CTX_RESUMED_FROM;
  if (opts.restartAt !== undefined) env.CTX_RESPAWN_RESTART_AT = String(opts.restartAt);
  return env;
}

/** The transcript Claude Code keeps for `sessionId` run in the working directory, when it exists. */
function clientTranscript(deps: Deps, sessionId: string): string | undefined {
  const config = deps.env.CLAUDE_CONFIG_DIR || (deps.env.HOME ? join(deps.env.HOME, ".claude") : undefined);
  const path = config
    ? join(config, "projects", deps.cwd.replace(/[^A-Za-z0-9]/g, "-"), `${sessionId}.jsonl`)
    : undefined;
  return path && existsSync(path) ? path : undefined;
}

/** A one-line transcript of a leg that never wrote one: its prompt, as the client would have recorded it. */
function promptTranscript(sessionId: string, prompt: string, deps: Deps): string {
  const path = join(mkdtempSync(join(tmpdir(), "ctx-run-")), `${sessionId}.jsonl`);
  const line = { type: "user", sessionId, cwd: deps.cwd, timestamp: new Date(deps.now()).toISOString() };
  writeFileSync(path, `${JSON.stringify({ ...line, message: { role: "user", content: prompt } })}\n`);
  return path;
}

/** Writes the leg's summary (`ctx finalize`, the session ended); its path, or undefined when it failed. */
function summarise(sessionId: string, project: string, deps: Deps, ignore: string[], prompt = ""): string | undefined {
  // a leg cut before its first hook has no state: its transcript (where the client keeps it, else its
  // prompt, all ctx knows of it) still gives the next session the goal
  const opts = { project, sessionId, ended: true, reason: "run_leg", ignore };
  const tracked = legSession(stateRoot(deps.env, project), sessionId, deps.now()).tracked;
  const transcript = tracked
    ? undefined
    : (clientTranscript(deps, sessionId) ?? promptTranscript(sessionId, prompt, deps));
  try {
    return finalize(transcript ? { ...opts, transcriptPath: transcript } : opts, deps).summaryPath;
  } catch (err) {
    deps.stderr(`ctx run: finalize failed: ${(err as Error).message}\n`);
    return undefined;
  }
}

function legReport(
  n: number,
  sid: string,
  end: LegEnd,
  code: number | null,
  state: { usedPct: number; toolCalls: number },
  startedAt: number,
  endedAt: number,
): LegReport {
  const r: LegReport = {
    n,
    session_id: sid,
    end: end.kind,
    exit_code: code,
    used_pct: state.usedPct,
    tool_calls: state.toolCalls,
    started_at: new Date(startedAt).toISOString(),
    ended_at: new Date(endedAt).toISOString(),
  };
  if (end.kind === "limit" && end.hit.resetsAt !== undefined) r.resets_at = new Date(end.hit.resetsAt).toISOString();
  if (end.kind === "failed" || end.kind === "brake") r.detail = end.detail;
  return r;
}

/** Prints the result (or the report with --json) and returns the exit code of `next`. */
function finish(deps: Deps, opts: RunOptions, env: Env, legs: LegReport[], p: RunProgress, next: Next): number {
  const last = p.legs[p.legs.length - 1]?.end;
  const result = last?.kind === "finished" ? last.result : undefined;
  const outcome =
    next.type === "done"
      ? "done"
      : next.type === "brake"
        ? "brake"
        : next.type === "limit_gave_up"
          ? "limit"
          : "failed";
  const code = RUN_EXIT[outcome === "limit" ? "limit" : outcome];
  const elapsed = Math.round((deps.now() - p.startedAt) / 1000);
  if (outcome === "done") deps.stderr(`${doneLine(legs, elapsed)}\n`);
  else if (next.type === "failed") deps.stderr(`ctx run: failed: ${next.detail}\n`);
  const summary = legs.at(-1)?.summary;
  if (summary && outcome !== "done") deps.stderr(`ctx run: the last leg's summary: ${summary}\n`);
  if (opts.json) {
    const report: RunReport = {
      version: 1,
      ctx_version: VERSION,
      outcome,
      exit_code: code,
      task_id: env.CTX_TASK_ID!,
      elapsed_s: elapsed,
      legs,
    };
    if (summary) report.summary = summary;
    if (next.type === "brake") report.brake = next.name;
    if (next.type === "brake" || next.type === "limit_gave_up") report.message = next.message;
    if (next.type === "failed") report.message = next.detail;
    if (result !== undefined) report.result = result;
    deps.stdout(`${JSON.stringify(report, null, 2)}\n`);
  } else if (result !== undefined) deps.stdout(result.endsWith("\n") ? result : `${result}\n`);
  return code;
}
