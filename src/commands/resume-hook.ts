/** The `ctx resume --hook` driver: reads the SessionStart payload, decides, prints, records. */
import { sleepCounted } from "../io/fs/wait.ts";
import { existsSync } from "node:fs";
import { decodeHook } from "../core/agents/index.ts";
import type { Config } from "../core/config-schema.ts";
import { debug, type Deps } from "../core/deps.ts";
import { parseHookInput } from "../core/hook-input.ts";
import { layout } from "../core/layout.ts";
import { continuedLine } from "../io/resume/notice.ts";
import { stateRoot } from "../core/paths.ts";
import { hookProject } from "../io/project.ts";
import { decideHook, type HookDecision, type HookLimits } from "../core/resume/hook-decision.ts";
import { newestFirst, type SummaryFile } from "../core/resume/summaries.ts";
import { isValidSessionId } from "../core/session-id.ts";
import { loadConfig } from "../io/config.ts";
import { readResumeState, resumeTransaction } from "../io/resume/state.ts";
import { finalizeLikelyRunning } from "../io/finalize/pending.ts";
import { taskListState } from "../io/session/task-list.ts";
import {
  chainOf,
  chainSummaryPending,
  finalizeLockState,
  liveChains,
  refreshDue,
  type ChainContext,
} from "../io/resume/chain.ts";
import { startFinalize } from "../io/finalize/spawn.ts";
import { listSummaries, openTaskIdsIn, readSummaryIn } from "../io/resume/summaries.ts";
import { wasWritten } from "../io/written.ts";
import { reportUnclaimedHook } from "../io/unclaimed.ts";

/** The hook's output for an injection or a hint (with the user's one line for an injection). */
export interface SessionStartOutput {
  hookSpecificOutput: { hookEventName: "SessionStart"; additionalContext: string };
  systemMessage?: string;
}

/** Reads stdin, decides, and prints the SessionStart output (if any). Never throws past main's hook guard. */
export async function resumeHook(deps: Deps): Promise<HookDecision | undefined> {
  const stdin = await deps.readStdin({ timeoutMs: 2000, maxBytes: 1024 * 1024 });
  const input = parseHookInput(stdin.text);
  const hook = decodeHook(input);
  if (!hook) await reportUnclaimedHook(deps, "resume", input);
  const sessionId = hook?.sessionId;
  if (!hook || hook.event !== "SessionStart" || !isValidSessionId(sessionId)) return undefined;
  const project = hookProject(deps.env, hook.cwd, deps.cwd);
  const root = stateRoot(deps.env, project);
  const decision = await decide(root, sessionId, hook.source, loadConfig(deps, project), deps);
  const why =
    decision.action === "none"
      ? ` (${decision.reason})`
      : ` ${decision.summary}${decision.action === "inject" ? ` (rule: ${decision.rule})` : ""}`;
  debug(deps, `resume hook: ${decision.action}${why}`);
  if (decision.action !== "none") {
    const out: SessionStartOutput = {
      hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: decision.text },
    };
    if (decision.action === "inject")
      out.systemMessage = continuedLine(deps.env, root, sessionId, decision.summary, decision.rule === "pending");
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
  // The summaries are listed once per look (a project may keep thousands), again after a wait.
  let listed: SummaryFile[] | undefined;
  const summaries = () => {
    listed ??= listSummaries(root);
    return listed;
  };
  const ctx = chainOf(root, sessionId, source, deps.now());
  const known = ctx.chain !== undefined;
  debug(deps, `resume hook: chain ${ctx.chain ?? "unknown"} (${ctx.how})`);
  const situation = () => ({
    source,
    sessionId,
    nowMs: deps.now(),
    summaries: summaries(),
    limits,
    load: (path: string) => writtenByUs(readSummaryIn(root, path), deps),
    openTasks: (path: string) => openTaskIdsIn(deps.env, root, path),
    chain: ctx.chain,
    taskList: taskListState(deps.env),
    liveChains:
      !known && (source === "clear" || source === "compact")
        ? liveChains(root, sessionId, deps.now(), cfg["status.stale_after_s"] * 1000)
        : undefined,
  });
  // One budget for every wait of this call: never longer than resume.finalize_wait_ms in all.
  const until = deps.now() + cfg["resume.finalize_wait_ms"];
  const waitFor = async () => {
    const waited = await (known
      ? waitForChain(root, ctx, cfg, deps, until)
      : waitForFinalize(root, sessionId, source, deps, until));
    listed = undefined;
    return waited;
  };
  // The wait's checks read the files again after the first listing: a summary that a finalize finished in
  // between is no longer "pending" there, and only a fresh listing sees it (waitFor lists again).
  if (!existsSync(layout(root).respawnPending) && summaries().length === 0) {
    if (!(await waitFor()) && summaries().length === 0) return { action: "none", reason: "no summary" };
  }
  let first = decideHook({ ...situation(), ...readResumeState(root, deps.now()) });
  // The chain's own summary may still be being written: wait for it rather than take an older one.
  const stale =
    known && first.action === "inject" && first.rule === "chain" && chainSummaryPending(root, ctx, cfg, deps.now());
  if (first.action === "none" || stale) {
    const waited = await waitFor();
    const arriving = first.action === "none" && (source === "clear" || source === "compact");
    if (waited || arriving) first = decideHook({ ...situation(), ...readResumeState(root, deps.now()) });
  }
  if (first.action !== "inject") return first;
  // Decided again under the ledger's lock (another session may have consumed it), from the same listing.
  try {
    return resumeTransaction(root, deps.now(), (state) => decideHook({ ...situation(), ...state }));
  } catch (err) {
    // No ledger entry means no loop guard: inject nothing rather than risk injecting on every /clear.
    debug(deps, `resume hook: ledger not written (${(err as Error).message}); nothing injected`);
    return { action: "none", reason: "ledger not writable" };
  }
}

/** How long the hook waits for the cleared session's own refresh to start before starting it itself. */
const KICK_AFTER_MS = 1500;

/** Polls up to `resume.finalize_wait_ms` while the chain's summary is still being written; true when it is done. */
async function waitForChain(
  root: string,
  ctx: ChainContext,
  cfg: Config,
  deps: Deps,
  deadline: number,
): Promise<boolean> {
  const waitMs = cfg["resume.finalize_wait_ms"];
  if (deps.now() >= deadline || !chainSummaryPending(root, ctx, cfg, deps.now())) return false;
  const lock = ctx.predecessor ? layout(root).finalizeLock(ctx.predecessor.session_id) : undefined;
  const kickAt = deps.now() + KICK_AFTER_MS;
  let sawLock = false;
  let kicked: number | undefined; // when the hook started the refresh itself
  while (deps.now() < deadline) {
    await sleepCounted(50);
    if (!chainSummaryPending(root, ctx, cfg, deps.now(), kicked)) return true;
    // A finalize that held its lock and let go without a new summary has failed: waiting longer gains nothing.
    const held = finalizeLockState(lock) === "held"; // a killed finalize's lock is let go too
    if (sawLock && !held) break;
    sawLock ||= held;
    // The refresh SessionEnd should have started (its hooks get ~1.5 s in all, and may be cut short): start it.
    if (!sawLock && kicked === undefined && deps.now() >= kickAt) {
      kicked = deps.now();
      const p = refreshDue(root, ctx, cfg, deps.now());
      if (p) {
        const t = { project: p.project, sessionId: p.session_id, transcriptPath: p.transcript_path, reason: "clear" };
        debug(deps, `resume hook: refreshing the summary of ${p.session_id}: ${await startFinalize(deps, t)}`);
      }
    }
  }
  debug(deps, `resume hook: the summary of ${ctx.chain} did not appear (waited up to ${waitMs} ms)`);
  return true; // decide again: the chain's newest summary, if any, is still better than nothing
}

/**
 * After /clear the previous session's finalize may still be writing its
 * summary (SessionEnd runs it detached). When that looks likely, poll for up
 * to `deadline` (what is left of `resume.finalize_wait_ms`); true when a new summary appeared.
 */
async function waitForFinalize(
  root: string,
  sessionId: string,
  source: string | undefined,
  deps: Deps,
  deadline: number,
): Promise<boolean> {
  if ((source !== "clear" && source !== "compact") || deps.now() >= deadline) return false;
  const newestMs = () => newestFirst(listSummaries(root), deps.now())[0]?.mtimeMs ?? 0;
  const before = newestMs();
  if (!finalizeLikelyRunning(root, sessionId, before, deps.now(), 60_000)) return false;
  while (deps.now() < deadline) {
    await sleepCounted(50);
    if (newestMs() > before) return true;
  }
  return false;
}

/** A summary's text when ctx, as this user, wrote it (io/written.ts); a committed or planted one is never used. */
function writtenByUs(text: string | undefined, deps: Deps): string | undefined {
  if (text === undefined || wasWritten(deps.env, text)) return text;
  debug(deps, "resume hook: a summary ctx did not write is ignored");
  return undefined;
}

function limitsOf(cfg: Config): HookLimits {
  const ms = (v: number | false) => (v === false ? false : v * 1000);
  return {
    injectMaxAgeMs: ms(cfg["resume.inject_max_age_s"]),
    hintMaxAgeMs: ms(cfg["resume.hint_max_age_s"]),
    pendingMaxAgeMs: ms(cfg["resume.pending_max_age_s"]),
  };
}
