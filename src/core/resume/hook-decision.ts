/**
 * What `ctx resume --hook` does on one SessionStart: inject a summary, print a
 * one-line hint, or nothing. Pure: files are passed in, content through `load`.
 */
import { isConsumed, markConsumed, type ConsumedVia, type Ledger } from "./ledger.ts";
import { consumePending, isPendingLive, type RespawnPending } from "./pending.ts";
import { ageText } from "../status/format.ts";
import { buildResumePrompt, hasContent, hintText, type PromptVia } from "./prompt.ts";
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
  /** Reads a summary's text; undefined when it cannot be read. */
  load: (path: string) => string | undefined;
}

/** The outcome. `ledger` and `pending` are set when the files must be rewritten. */
export type HookDecision =
  | { action: "inject"; text: string; summary: string; via: ConsumedVia; ledger: Ledger; pending?: RespawnPending }
  | { action: "hint"; text: string; summary: string }
  | { action: "none"; reason: string };

/** Decides what one SessionStart gets. */
export function decideHook(s: HookSituation): HookDecision {
  const fromPending = pendingInjection(s);
  if (fromPending) return fromPending;
  const fresh = unconsumedNewestFirst(s);
  if (s.source === "clear" || s.source === "compact") {
    for (const f of fresh) {
      if (tooOld(s.nowMs - f.mtimeMs, s.limits.injectMaxAgeMs)) continue;
      const text = s.load(f.path);
      if (text === undefined || !hasContent(text)) continue;
      return inject(s, f.name, f.path, text, s.source, s.source);
    }
    return { action: "none", reason: "no unconsumed summary" };
  }
  const newest = fresh[0];
  if (!newest) return { action: "none", reason: "no unconsumed summary" };
  const age = s.nowMs - newest.mtimeMs;
  if (s.limits.hintMaxAgeMs === false || tooOld(age, s.limits.hintMaxAgeMs))
    return { action: "none", reason: "summary too old for a hint" };
  return { action: "hint", text: hintText(newest.name, ageText(age)), summary: newest.name };
}

// --- internal ---

/** Summaries newer than the newest consumed one, newest first: an older one is history, already continued. */
function unconsumedNewestFirst(s: HookSituation): SummaryFile[] {
  const out: SummaryFile[] = [];
  for (const f of newestFirst(s.summaries, s.nowMs)) {
    if (isConsumed(s.ledger, f.name)) break;
    out.push(f);
  }
  return out;
}

function pendingInjection(s: HookSituation): HookDecision | undefined {
  const p = s.pending;
  if (!p || !isPendingLive(p, s.nowMs, s.limits.pendingMaxAgeMs)) return undefined;
  const text = s.load(p.summary_path);
  if (text === undefined || !hasContent(text)) return undefined;
  const name = p.summary_path.slice(p.summary_path.lastIndexOf("/") + 1);
  const d = inject(s, name, p.summary_path, text, "pending", "respawn");
  return { ...d, pending: consumePending(p, s.sessionId, s.nowMs) };
}

function inject(s: HookSituation, name: string, path: string, text: string, via: ConsumedVia, promptVia: PromptVia) {
  const ledger = markConsumed(s.ledger, name, { session_id: s.sessionId, via, at: new Date(s.nowMs).toISOString() });
  return { action: "inject" as const, text: buildResumePrompt(text, path, promptVia), summary: name, via, ledger };
}

function tooOld(ageMs: number, maxMs: number | false): boolean {
  return maxMs !== false && ageMs > maxMs;
}
