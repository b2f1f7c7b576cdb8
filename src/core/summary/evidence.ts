/**
 * What the twin keeps besides the summary's text (issue 27, "no claim without evidence"): the
 * transcript lines (1-based) every item came from (`evidence`), the failures still shown as
 * failing (still-failing.ts) next to the count of those that are history, and the open work that
 * is no failure (open-work.ts). Line numbers are of the transcript of the session `session`
 * (an index into the twin's `sessions`). Pure.
 */
import { isResolved } from "./errors.ts";
import type { Facts } from "./facts.ts";
import { openWork } from "./open-work.ts";
import { settleErrors } from "./still-failing.ts";

/** Lines of one transcript of the chain. */
export interface Evidence {
  /** Index into `sessions`. */
  session: number;
  lines: number[];
}

/** The evidence of the twin's single fields (list items carry their own `evidence`). */
export interface TwinEvidence {
  goal?: Evidence;
  latest_request?: Evidence;
  /** One per decision, oldest first (empty lines for one carried from an older twin without evidence). */
  decisions?: Evidence[];
  last_step?: Evidence;
  /** The agent message a short latest request answers (`latest_answers`). */
  latest_answers?: Evidence;
  /** The tracker's last listing and the closes and creates after it (`tracker`). */
  tracker?: Evidence;
  /** One per command of this session's list ("This session"), oldest first: the call's line and its result's. */
  commands?: Evidence[];
}

/** An error of the chain as the twin keeps it (the ChainError fields). */
export interface EvidencedError {
  tool: string;
  target: string;
  message: string;
  key: string;
  session: number;
  evidence?: number[];
}

/** The errors the summary shows as failing: this session's (still-failing.ts), then earlier ones no step resolved. */
export function chainErrors(
  prev: { errors: EvidencedError[]; errors_history?: { count: number; evidence: number[] } } | undefined,
  f: Facts,
  at: number,
  shift: (i: number) => number,
  rel: (p: string) => string,
): { errors: EvidencedError[]; history: { count: number; evidence: number[]; session: number } } {
  const settled = settleErrors(f);
  // A later success at the same program or file resolves an earlier session's failure too.
  const mine = settled.open.map(([key, e]) => ({
    tool: e.tool,
    target: rel(e.target),
    message: e.message,
    key,
    session: at,
    evidence: e.evidence ?? [],
  }));
  const older = (prev?.errors ?? [])
    .filter((e) => !isResolved(e.key, f.succeeded) && !f.unresolved.has(e.key))
    .map((e) => ({ ...e, session: shift(e.session) }))
    .filter((e) => e.session >= 0);
  const count = (prev?.errors_history?.count ?? 0) + settled.history.count;
  const evidence = settled.history.count ? settled.history.evidence : [];
  return { errors: [...mine, ...older], history: { count, evidence, session: at } };
}

/**
 * The evidence of the single fields: this session's lines where it gave the field, else the previous
 * twin's; `answers` / `tracker` say whether the twin has `latest_answers` / a tracker at all.
 */
export function fieldEvidence(
  prev: TwinEvidence | undefined,
  f: Facts,
  at: number,
  shift: (i: number) => number,
  carried: { goal: boolean; latest: boolean; decisionsKept: number; answers: boolean; tracker: boolean },
): TwinEvidence {
  const old = (e: Evidence | undefined) =>
    e && shift(e.session) >= 0 ? { ...e, session: shift(e.session) } : undefined;
  const here = (lines: number[]) =>
    lines.some((n) => n > 0) ? { session: at, lines: lines.filter((n) => n > 0) } : undefined;
  const mine = f.decisionLines.items.map((n) => ({ session: at, lines: n > 0 ? [n] : [] }));
  const before = (prev?.decisions ?? []).map((e) => old(e) ?? { session: 0, lines: [] });
  const decisions = [...before, ...mine].slice(-carried.decisionsKept);
  const out: TwinEvidence = {
    goal: carried.goal ? old(prev?.goal) : here(f.goalLines),
    latest_request: carried.latest ? old(prev?.latest_request) : here(f.latestLines),
    decisions,
    last_step: f.lastStep ? here([f.lastStepLine]) : old(prev?.last_step),
    latest_answers: !carried.answers
      ? undefined
      : carried.latest
        ? old(prev?.latest_answers)
        : here([f.latestAnswersLine]),
    tracker: !carried.tracker ? undefined : f.trackerLines.length ? here(f.trackerLines) : old(prev?.tracker),
    commands: f.commands.items.map((c) => ({ session: at, lines: c.evidence ?? [] })),
  };
  for (const k of Object.keys(out) as (keyof TwinEvidence)[]) if (out[k] === undefined) delete out[k];
  return out;
}

/** This session's open work that is no failure, with its lines (`stillChanged`: what `git status` shows, when known). */
export function chainOpenWork(
  f: Facts,
  at: number,
  stillChanged?: (path: string) => boolean,
): Array<{ text: string; evidence: number[]; session: number }> {
  return openWork(f, stillChanged).map((w) => ({ ...w, session: at }));
}
