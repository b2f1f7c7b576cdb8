import { basename, dirname } from "node:path";
import { parseResumeArgs, type ResumeOptions } from "../core/resume/args.ts";
import { claudeArgs } from "../core/resume/command.ts";
import { shellLine } from "../core/shell.ts";
import { buildResumePrompt } from "../core/resume/prompt.ts";
import { debug, type Deps, type Env } from "../core/deps.ts";
import { STATE_DIRS } from "../core/layout.ts";
import { stateRoot } from "../core/paths.ts";
import { findProject } from "../io/project.ts";
import { findClaude, runInherited } from "../io/resume/claude-launch.ts";
import { markConsumedByCli } from "../io/resume/state.ts";
import { loadSummaryForCli } from "../io/resume/summaries.ts";
import { isTerminalFd, pickLatest, terminalAsker } from "../io/resume/latest.ts";
import { resumeHook } from "./resume-hook.ts";
import { taskOfSummary } from "../core/resume/hook-decision.ts";
import { isValidTaskId } from "../core/track/stamp.ts";
import { isValidSessionId } from "../core/session-id.ts";
import { taskListState } from "../io/session/task-list.ts";
import { readWrittenTwin, wasWritten } from "../io/written.ts";

/**
 * `ctx resume`: starts a fresh claude session whose first prompt is the
 * previous session's summary (`--print` prints it, `--dry-run` shows the
 * command), or with `--hook` runs as a SessionStart hook.
 */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const opts = parseResumeArgs(argv);
  if (opts.mode === "hook") {
    // A hook never breaks the session: main runs this call as a hook (hookFlag), so an error is
    // swallowed there, recorded in errors.log, and the exit code is 0.
    await resumeHook(deps);
    return 0;
  }
  return launch(opts, deps);
}

// --- internal ---

async function launch(opts: Exclude<ResumeOptions, { mode: "hook" }>, deps: Deps): Promise<number> {
  const root = stateRoot(deps.env, findProject(deps.env, deps.cwd));
  // --latest takes only a summary ctx wrote; a file the user names is theirs to choose
  const file = opts.latest ? latest(root, deps) : opts.summary!;
  const summary = loadSummaryForCli(file, deps.cwd);
  const { env, openTasks } = chainEnv(summary.path, deps);
  const prompt = buildResumePrompt(summary.text, summary.path, "prompt", taskListState(env), openTasks);
  if (opts.mode === "print") {
    deps.stdout(prompt);
    return 0;
  }
  const bin = opts.mode === "dry-run" ? binForDisplay(deps) : findClaude(deps.env, deps.cwd);
  const args = claudeArgs(opts.passthrough, prompt);
  if (opts.mode === "dry-run") {
    deps.stdout(`${shellLine([bin, ...args])}\n`);
    return 0;
  }
  markConsumed(summary.path, deps);
  return runInherited(bin, args, env, deps.cwd);
}

/**
 * The launched session continues the summary's chain: `CTX_TASK_ID` and
 * `CLAUDE_CODE_TASK_LIST_ID` (unless already set) name the chain, and
 * `CTX_RESUMED_FROM` the session the summary is about (from its twin), which
 * `ctx track` links the new session to. `openTasks`: the twin's open task ids (see taskListNote).
 */
function chainEnv(summaryPath: string, deps: Deps): { env: Env; openTasks: string[] } {
  const twin = readWrittenTwin(deps.env, summaryPath);
  const task = twin?.task_id ?? taskOfSummary(basename(summaryPath));
  const env = { ...deps.env };
  if (isValidTaskId(task)) {
    env.CTX_TASK_ID = task;
    if (!isValidTaskId(env.CLAUDE_CODE_TASK_LIST_ID)) env.CLAUDE_CODE_TASK_LIST_ID = task;
  }
  if (isValidSessionId(twin?.session_id)) env.CTX_RESUMED_FROM = twin.session_id;
  else delete env.CTX_RESUMED_FROM;
  debug(deps, `resume: chain ${env.CTX_TASK_ID ?? "none"}, resumed from ${env.CTX_RESUMED_FROM ?? "unknown"}`);
  return { env, openTasks: twin?.open_tasks.filter((t) => t.list !== "plan").map((t) => t.id) ?? [] };
}

/** `--latest`: the newest summary of this terminal's chain, or the one the user picks (io/resume/latest.ts). */
function latest(root: string, deps: Deps): string {
  const ask = terminalAsker(isTerminalFd(0) && isTerminalFd(2), deps.stderr);
  return pickLatest(root, deps.env, deps.now(), (text) => wasWritten(deps.env, text), ask).path;
}

function binForDisplay(deps: Deps): string {
  try {
    return findClaude(deps.env, deps.cwd);
  } catch {
    return deps.env.CTX_CLAUDE || "claude";
  }
}

/** A summary under `<root>/sessions/` is marked consumed there, so no hook injects it again. */
function markConsumed(path: string, deps: Deps): void {
  const dir = dirname(path);
  if (basename(dir) !== STATE_DIRS.records) return;
  try {
    markConsumedByCli(dirname(dir), basename(path), deps.now());
  } catch (err) {
    debug(deps, `resume: ledger not updated: ${(err as Error).message}`);
  }
}
