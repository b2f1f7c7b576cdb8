/**
 * What `ctx resume --hook` does on one SessionStart: inject a summary, print a
 * one-line hint, or nothing. Pure: files are passed in, content through `load`.
 */
import { STATE_NAMES } from "../layout.ts";
import { isConsumed, markConsumed, type ConsumedVia, type Ledger } from "./ledger.ts";
import { consumePending, isPendingLive, type RespawnPending } from "./pending.ts";
import { ageText } from "../status/format.ts";
import { buildResumePrompt, hasContent, hintText, type PromptVia, type TaskListState } from "./prompt.ts";
import { newestFirst, type SummaryFile } from "./summaries.ts";

/** Age limits, in ms (`false` = no limit). */
export interface HookLimits {
  /** A summary older than this is not injected after /clear or compaction. */
  injectMaxAgeMs: number | false;
  /** A summary older than this gets no startup hint (`false`: hint at any age). */
  hintMaxAgeMs: number | false;
  /** A pending respawn file older than this is ignored. */
  pendingMaxAgeMs: number | false;
}

/** Everything the decision looks at. */
export interface HookSituation {
  /** SessionStart `source`: startup, resume, clear, compact (anything else counts as startup). */
  source: string | undefined;
  /** The new session's id (already validated). */
  sessionId: string;
  nowMs: number;
  /** The project's summaries, in any order. */
  summaries: readonly SummaryFile[];
  ledger: Ledger;
  /** The respawn hand-over, when the file exists. */
  pending?: RespawnPending;
  limits: HookLimits;
  /** Reads a summary's text; undefined when it cannot be read or ctx did not write it (neither injected nor hinted). */
  load: (path: string) => string | undefined;
  /**
   * The task id of the chain this session continues: after /clear the cleared
   * session's, after a compaction its own. Undefined when it cannot be determined.
   */
  chain?: string;
  /** Task ids of chains with a live session other than this one (for the fallback). */
  liveChains?: ReadonlySet<string>;
  /** Whether the new session's task list already holds the chain's tasks (see taskListNote). */
  taskList?: TaskListState;
  /** The ids of a summary's open tasks, from its twin (ctx's own record); none when absent. */
  openTasks?: (path: string) => readonly string[];
}

/** Which rule picked the summary: the respawn hand-over, the chain's own summary, or the no-link fallback. */
export type HookRule = "pending" | "chain" | "fallback";

/** The outcome. `ledger` and `pending` are set when the files must be rewritten. */
export type HookDecision =
  | {
      action: "inject";
      text: string;
      summary: string;
      via: ConsumedVia;
      ledger: Ledger;
      pending?: RespawnPending;
      rule: HookRule;
    }
  | { action: "hint"; text: string; summary: string }
  | { action: "none"; reason: string };

/**
 * Decides what one SessionStart gets. After /clear or a compaction: the newest
 * unconsumed summary of the session's chain; only when the chain is unknown,
 * the newest unconsumed summary of a chain without a live session.
 */
export function decideHook(s: HookSituation): HookDecision {
  const fromPending = pendingInjection(s);
  if (fromPending) return fromPending;
  if (s.source === "clear" || s.source === "compact") {
    const rule: HookRule = s.chain !== undefined ? "chain" : "fallback";
    const candidates =
      s.chain !== undefined
        ? unconsumedNewestFirst(s, (f) => taskOfSummary(f.name) === s.chain)
        : unconsumedNewestFirst(s, () => true).filter((f) => !s.liveChains?.has(taskOfSummary(f.name) ?? ""));
    for (const f of candidates) {
      if (tooOld(s.nowMs - f.mtimeMs, s.limits.injectMaxAgeMs)) continue;
      const text = s.load(f.path);
      if (text === undefined || !hasContent(text)) continue;
      return inject(s, f.name, f.path, text, s.source, s.source, rule);
    }
    return {
      action: "none",
      reason: s.chain !== undefined ? `no unconsumed summary of ${s.chain}` : "no unconsumed summary",
    };
  }
  const unconsumed = unconsumedNewestFirst(s, () => true);
  if (unconsumed.length === 0) return { action: "none", reason: "no unconsumed summary" };
  // the newest that can be loaded (ctx wrote it), among the first few young enough
  for (const f of unconsumed.slice(0, HINT_LOOKS)) {
    const age = s.nowMs - f.mtimeMs;
    if (s.limits.hintMaxAgeMs === false || tooOld(age, s.limits.hintMaxAgeMs))
      return { action: "none", reason: "summary too old for a hint" };
    if (s.load(f.path) !== undefined) return { action: "hint", text: hintText(f.name, ageText(age)), summary: f.name };
  }
  return { action: "none", reason: "no unconsumed summary ctx wrote" };
}

/** How many unconsumed summaries a start-up looks at for a hint (each is read and checked). */
const HINT_LOOKS = 16;

/** The task id in a summary's name (`summary-<task>-<YYYYMMDD>-<HHMMSS>.md`), or undefined. */
export function taskOfSummary(name: string): string | undefined {
  return STATE_NAMES.summaryTask(name);
}

// --- internal ---

/**
 * Summaries that `keep` accepts, newest first, that are newer than the newest
 * consumed one of their chain: an older one is history, already continued.
 */
function unconsumedNewestFirst(s: HookSituation, keep: (f: SummaryFile) => boolean): SummaryFile[] {
  const out: SummaryFile[] = [];
  const done = new Set<string>();
  for (const f of newestFirst(s.summaries, s.nowMs)) {
    if (!keep(f)) continue;
    const chain = taskOfSummary(f.name) ?? f.name;
    if (done.has(chain)) continue;
    if (isConsumed(s.ledger, f.name)) done.add(chain);
    else out.push(f);
  }
  return out;
}

/**
 * The respawn hand-over's summary, injected only after `/clear` (the supervisor's hand-over is
 * always a /clear; a planted file must not reach a plain start-up) and only while that summary is
 * unconsumed and not history (a newer summary of its chain was consumed).
 */
function pendingInjection(s: HookSituation): HookDecision | undefined {
  const p = s.pending;
  if (s.source !== "clear" || !p || !isPendingLive(p, s.nowMs, s.limits.pendingMaxAgeMs)) return undefined;
  const name = p.summary_path.slice(p.summary_path.lastIndexOf("/") + 1);
  const chain = taskOfSummary(name) ?? name;
  if (!unconsumedNewestFirst(s, (f) => (taskOfSummary(f.name) ?? f.name) === chain).some((f) => f.name === name))
    return undefined;
  // A hand-over left for another chain (another session of the project under respawn) is not ours.
  const owner = taskOfSummary(name);
  if (s.chain !== undefined && owner !== undefined && owner !== s.chain) return undefined;
  const text = s.load(p.summary_path);
  if (text === undefined || !hasContent(text)) return undefined;
  const d = inject(s, name, p.summary_path, text, "pending", "respawn", "pending");
  return { ...d, pending: consumePending(p, s.sessionId, s.nowMs) };
}

function inject(
  s: HookSituation,
  name: string,
  path: string,
  text: string,
  via: ConsumedVia,
  promptVia: PromptVia,
  rule: HookRule,
) {
  const task = taskOfSummary(name);
  const entry = {
    session_id: s.sessionId,
    via,
    at: new Date(s.nowMs).toISOString(),
    ...(task ? { task_id: task } : {}),
  };
  const ledger = markConsumed(s.ledger, name, entry);
  return {
    action: "inject" as const,
    text: buildResumePrompt(text, path, promptVia, s.taskList, s.openTasks?.(path) ?? []),
    summary: name,
    via,
    ledger,
    rule,
  };
}

function tooOld(ageMs: number, maxMs: number | false): boolean {
  return maxMs !== false && ageMs > maxMs;
}
