/** The `ctx resume --hook` driver: reads the SessionStart payload, decides, prints, records. */
import { existsSync } from "node:fs";
import type { Config } from "../core/config-schema.ts";
import { debug, type Deps } from "../core/deps.ts";
import { parseHookInput, str } from "../core/hook-input.ts";
import { projectDir, stateRoot } from "../core/paths.ts";
import { decideHook, type HookDecision, type HookLimits } from "../core/resume/hook-decision.ts";
import { newestFirst } from "../core/resume/summaries.ts";
import { isValidSessionId } from "../core/session-id.ts";
import { loadConfig } from "./config.ts";
import { pendingPath, readResumeState, resumeTransaction } from "./resume-state.ts";
import { finalizeLikelyRunning } from "./finalize-pending.ts";
import { listSummaries, readSummaryIn } from "./summaries.ts";

/** The hook's output for an injection or a hint. */
export interface SessionStartOutput {
  hookSpecificOutput: { hookEventName: "SessionStart"; additionalContext: string };
}

/** Reads stdin, decides, and prints the SessionStart output (if any). Never throws past main's hook guard. */
export async function resumeHook(deps: Deps): Promise<HookDecision | undefined> {
  const stdin = await deps.readStdin({ timeoutMs: 2000, maxBytes: 1024 * 1024 });
  const input = parseHookInput(stdin.text);
  const event = str(input, "hook_event_name");
  const sessionId = input.session_id;
  if ((event && event !== "SessionStart") || !isValidSessionId(sessionId)) return undefined;
  const project = projectDir(deps.env, input.cwd, deps.cwd);
  const root = stateRoot(deps.env, project);
  const decision = await decide(root, sessionId, str(input, "source"), loadConfig(deps, project), deps);
  debug(
    deps,
    `resume hook: ${decision.action}${decision.action === "none" ? ` (${decision.reason})` : ` ${decision.summary}`}`,
  );
  if (decision.action !== "none") {
    const out: SessionStartOutput = {
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: decision.text },
    };
    deps.stdout(`${JSON.stringify(out)}\n`);
  }
  return decision;
}

// --- internal ---

/**
 * A read-only look first (a plain startup in a project without summaries
 * creates no file and takes no lock); an injection is decided again under the
 * ledger's lock, so two sessions never both consume one summary.
 */
async function decide(
  root: string,
  sessionId: string,
  source: string | undefined,
  cfg: Config,
  deps: Deps,
): Promise<HookDecision> {
  const limits = limitsOf(cfg);
  const situation = () => ({
    source,
    sessionId,
    nowMs: deps.now(),
    summaries: listSummaries(root),
    limits,
    load: (path: string) => readSummaryIn(root, path),
  });
  if (
    !existsSync(pendingPath(root)) &&
    listSummaries(root).length === 0 &&
    !(await waitForFinalize(root, sessionId, source, cfg, deps))
  ) {
    return { action: "none", reason: "no summary" };
  }
  let first = decideHook({ ...situation(), ...readResumeState(root, deps.now()) });
  if (first.action === "none" && (await waitForFinalize(root, sessionId, source, cfg, deps))) {
    first = decideHook({ ...situation(), ...readResumeState(root, deps.now()) });
  }
  if (first.action !== "inject") return first;
  try {
    return resumeTransaction(root, deps.now(), (state) => decideHook({ ...situation(), ...state }));
  } catch (err) {
    // No ledger entry means no loop guard: inject nothing rather than risk injecting on every /clear.
    debug(deps, `resume hook: ledger not written (${(err as Error).message}); nothing injected`);
    return { action: "none", reason: "ledger not writable" };
  }
}

/**
 * After /clear the previous session's finalize may still be writing its
 * summary (SessionEnd runs it detached). When that looks likely, poll for up
 * to `resume.finalize_wait_ms`; true when a new summary appeared.
 */
async function waitForFinalize(
  root: string,
  sessionId: string,
  source: string | undefined,
  cfg: Config,
  deps: Deps,
): Promise<boolean> {
  const waitMs = cfg["resume.finalize_wait_ms"];
  if ((source !== "clear" && source !== "compact") || waitMs <= 0) return false;
  const newestMs = () => newestFirst(listSummaries(root), deps.now())[0]?.mtimeMs ?? 0;
  const before = newestMs();
  if (!finalizeLikelyRunning(root, sessionId, before, deps.now(), 60_000)) return false;
  const deadline = deps.now() + waitMs;
  while (deps.now() < deadline) {
    await Bun.sleep(50);
    if (newestMs() > before) return true;
  }
  return false;
}

function limitsOf(cfg: Config): HookLimits {
  const ms = (v: number | false) => (v === false ? false : v * 1000);
  return {
    injectMaxAgeMs: ms(cfg["resume.inject_max_age_s"]),
    hintMaxAgeMs: ms(cfg["resume.hint_max_age_s"]),
    pendingMaxAgeMs: ms(cfg["resume.pending_max_age_s"]),
  };
}
