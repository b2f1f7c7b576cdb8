/**
 * Which failures the summary shows as failing (issue 27, "no claim without evidence"; the rule with
 * examples: docs/track-finalize.md, "Which errors are still open"). A failure whose intent no later
 * call achieved (errors.ts) is still shown as failing only when all of these hold:
 * - it is among the session's final steps (the last FINAL_STEPS calls that were steps of the work, not lookups);
 * - no later step succeeded at the same program and subcommand (`git push`, `mix test`, a tool) or the
 *   same target (a file);
 * - the agent's later messages do not report the work done.
 * Every other failure is history: counted, with its lines, never sent back as open work. Pure.
 */
import type { ErrorItem, Facts } from "./facts.ts";
import { failedIntent } from "./intent.ts";

/** How many of the session's last work steps (calls that are not lookups) are its final steps. */
export const FINAL_STEPS = 5;
/** Most lines kept as the evidence of the failures that are history. */
const HISTORY_LINES = 12;
/** An agent message that reports the work done... */
const REPORTS_DONE =
  /\b(?:done|fixed|resolved|pass(?:es|ed|ing)?|succeeded|successfully|works|working|complete[ds]?|all green|pushed|committed|merged|implemented|created|updated)\b|✅/i;
/** ...and does not say something still fails. */
const REPORTS_TROUBLE =
  /\b(?:fail(?:s|ed|ing|ures?)?|errors?|broken|unable|could(?:n't| not)|can(?:'t|not)|blocked|not (?:yet|working|fixed))\b|❌/i;

/** The programs and targets a failure key or a success key names: `prog:git push`, `target:src/a.ts`, `target:~a.ts`. */
export function keyParts(key: string): string[] {
  const out: string[] = [];
  let head = "";
  let targets: string[] = [];
  if (key.startsWith("run:")) {
    const at = key.indexOf(" @ ");
    head = at < 0 ? key.slice(4) : key.slice(4, at);
    targets = at < 0 ? [] : key.slice(at + 3).split(" ");
  } else if (key.startsWith("bash:")) {
    const it = failedIntent(key.slice(5));
    head = it?.head ?? "";
    targets = it?.targets ?? [];
  } else if (key.startsWith("file:")) targets = [key.slice(5)];
  else head = key.slice(0, Math.max(0, key.indexOf(":")));
  // The program with its subcommand (`go test`, `git push`): `go run` succeeding says nothing of `go test`.
  const program = head.replace(/^~/, "");
  if (program) out.push(`prog:${program}`);
  for (const t of targets) {
    if (!t || t.startsWith("~")) continue;
    out.push(`target:${t.replace(/^\.\//, "")}`);
    const base = /(?:^|\/)([^/\s]+\.[A-Za-z0-9]{1,8})$/.exec(t)?.[1];
    if (base) out.push(`target:~${base}`);
  }
  return out;
}

/** Notes what a successful call worked at (its keys, from successKeys), as the newest step. */
export function noteOk(f: Facts, keys: string[], paths: string[]): void {
  const step = f.workSteps;
  for (const k of keys) for (const p of keyParts(k)) f.okAt.set(p, step);
  for (const path of paths) for (const p of keyParts(`file:${path}`)) f.okAt.set(p, step);
  if (f.okAt.size > 4000) f.okAt = new Map([...f.okAt].slice(-2000));
}

/** True when the summary may show this unresolved failure (keyed `key`) as still failing. */
export function isStillFailing(f: Facts, key: string, e: ErrorItem): boolean {
  const step = e.step ?? f.workSteps;
  if (step <= f.workSteps - FINAL_STEPS) return false;
  // The same program, or a step on the same file, succeeded after it (a failure's own step is `step`).
  const parts = keyParts(key);
  const prog = parts.filter((p) => p.startsWith("prog:"));
  const files = parts.filter((p) => p.startsWith("target:"));
  const exact = files.filter((p) => !p.startsWith("target:~"));
  const later = (p: string) => (f.okAt.get(p) ?? -1) > step;
  if (prog.some(later) || (exact.length ? exact.some(later) : files.some(later))) return false;
  return !reportsDone(f, e.said ?? f.agentTexts.total);
}

/** This session's failures the summary shows as failing (newest first), and the ones that are history. */
export function settleErrors(f: Facts): {
  open: Array<[string, ErrorItem]>;
  history: { count: number; evidence: number[] };
} {
  const open = [...f.unresolved.entries()].filter(([k, e]) => isStillFailing(f, k, e)).reverse();
  const shown = new Set(open.map(([, e]) => e));
  // Lookups and malformed calls tried nothing: they are neither open nor worth a line of history.
  const rest = f.errors.items.filter((e) => e.attempt === true && !shown.has(e));
  const evidence = rest.flatMap((e) => e.evidence?.slice(-1) ?? []).slice(-HISTORY_LINES);
  return { open, history: { count: Math.max(0, f.attempts - open.length), evidence } };
}

// --- internal ---

/** True when an agent message written after the failure (the newest one) reports the work done. */
function reportsDone(f: Facts, said: number): boolean {
  if (f.agentTexts.total <= said) return false;
  const last = f.agentTexts.items.at(-1) ?? "";
  return REPORTS_DONE.test(last) && !REPORTS_TROUBLE.test(last);
}
