import { basename, dirname } from "node:path";
import { parseResumeArgs, type ResumeOptions } from "../core/resume/args.ts";
import { claudeArgs, shellQuote } from "../core/resume/command.ts";
import { buildResumePrompt } from "../core/resume/prompt.ts";
import { debug, type Deps } from "../core/deps.ts";
import { stateRoot } from "../core/paths.ts";
import { findProject } from "../io/project.ts";
import { findClaude, runInherited } from "../io/claude-launch.ts";
import { markConsumedByCli } from "../io/resume-state.ts";
import { latestSummary, loadSummaryForCli } from "../io/summaries.ts";
import { resumeHook } from "../io/resume-hook.ts";

/**
 * `ctx resume`: starts a fresh claude session whose first prompt is the
 * previous session's summary (`--print` prints it, `--dry-run` shows the
 * command), or with `--hook` runs as a SessionStart hook.
 */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const opts = parseResumeArgs(argv);
  if (opts.mode === "hook") {
    try {
      await resumeHook(deps);
    } catch (err) {
      // A hook never breaks the session: swallow, report only under CTX_DEBUG.
      debug(deps, `resume hook: ${(err as Error)?.stack ?? err}`);
    }
    return 0;
  }
  return launch(opts, deps);
}

// --- internal ---

async function launch(opts: Exclude<ResumeOptions, { mode: "hook" }>, deps: Deps): Promise<number> {
  const root = stateRoot(deps.env, findProject(deps.env, deps.cwd));
  const file = opts.latest ? latestSummary(root).path : opts.summary!;
  const summary = loadSummaryForCli(file, deps.cwd);
  const prompt = buildResumePrompt(summary.text, summary.path);
  if (opts.mode === "print") {
    deps.stdout(prompt);
    return 0;
  }
  const bin = opts.mode === "dry-run" ? binForDisplay(deps) : findClaude(deps.env, deps.cwd);
  const args = claudeArgs(opts.passthrough, prompt);
  if (opts.mode === "dry-run") {
    deps.stdout(`${shellQuote([bin, ...args])}\n`);
    return 0;
  }
  markConsumed(summary.path, deps);
  return runInherited(bin, args, deps.env, deps.cwd);
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
  if (basename(dir) !== "sessions") return;
  try {
    markConsumedByCli(dirname(dir), basename(path), deps.now());
  } catch (err) {
    debug(deps, `resume: ledger not updated: ${(err as Error).message}`);
  }
}
