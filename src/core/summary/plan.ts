/**
 * The plan of a session that has no task tool (Claude Code 2.1.332 on its default model:
 * docs/plan-tools.md): the newest numbered or checkbox list in the agent's messages, or the plan it
 * proposed with ExitPlanMode, carried as the open tasks (ids `p1`, `p2`, … in the list `plan`, never
 * to be re-created with a task tool). Pure.
 */
import type { Facts, TaskItem } from "./facts.ts";
import { planStore } from "../plan-tools.ts";
import { oneLine } from "./ring.ts";

/** One item of a plan: `1. x`, `2) x`, `- [ ] x`, `- [x] x`, `* [ ] x`. */
const ITEM = /^\s{0,6}(?:\d{1,3}[.)]|[-*+]\s*\[( |x|X)\])\s+(.+?)\s*$/;
/** An item that reports work done (a summary of changes, not a plan): it starts with a past-tense verb. */
const REPORTED =
  /^(?:added|fixed|updated|created|removed|deleted|implemented|renamed|moved|wrote|built|ran|made|done|completed|verified|tested|refactored|merged|committed|pushed|replaced|changed|extracted|introduced|converted|migrated|switched|documented|cleaned|simplified|resolved|installed|configured|enabled|disabled|wired|dropped)\b/i;
/**
 * A message that reports work finished, so its list is what was done: it opens with "Done",
 * "Finished", "All … addressed", or its list follows a heading such as "The fixes, in commit
 * `13642bf`:" or "What was changed:".
 */
const REPORT_OPENING =
  /^\W*(?:done|finished|all done|all set|shipped|complete[d]?|pushed|committed|merged)\b|^\W*all\b.{0,80}\b(?:addressed|fixed|done|resolved|complete[d]?|shipped|implemented)\b/i;
const REPORT_HEADING =
  /\b(?:in commit|what (?:was|i) (?:done|did|changed|created|fixed|updated)|what changed|the fixes|fixes made|changes made|summary of (?:the )?changes|(?:have|has) been (?:fixed|addressed|done|made|implemented))\b/i;
/** Most items carried. */
const MAX_ITEMS = 30;

/** Notes an agent message (or an ExitPlanMode plan) that holds a plan: two items or more. */
export function notePlanText(f: Facts, text: string): void {
  let items = 0;
  for (const line of text.split("\n", 400)) if (ITEM.test(line) && ++items >= 2) break;
  if (items >= 2) f.planText = { text: text.slice(0, 8000), line: f.line, report: isReport(text) };
}

/** The plan as tasks, when the session had no task tool and the agent wrote one; else none. */
export function planTasks(f: Facts): TaskItem[] {
  if (!f.planText || planStore(f.tools) !== "none") return [];
  const out: TaskItem[] = [];
  for (const line of f.planText.text.split("\n")) {
    const m = ITEM.exec(line);
    if (!m || out.length >= MAX_ITEMS) continue;
    const subject = oneLine(m[2]!.replace(/\*\*/g, "").replace(/^~~(.*)~~$/, "$1"), 160);
    const done =
      /x/i.test(m[1] ?? "") ||
      /^~~.*~~$/.test(m[2]!.trim()) ||
      /(?:✅|✓|\(done\))\s*$/i.test(m[2]!) ||
      f.planText.report === true ||
      REPORTED.test(subject.replace(/^[`*_\s]+/, ""));
    out.push({
      id: `p${out.length + 1}`,
      subject,
      status: done ? "completed" : "pending",
      evidence: [f.planText.line],
      list: "plan",
    });
  }
  return out;
}

/** Whether a message with a list reports work done: its opening, or the heading just above its first item. */
function isReport(text: string): boolean {
  const lines = text.split("\n", 400).filter((l) => l.trim() !== "");
  if (REPORT_OPENING.test(lines[0] ?? "")) return true;
  const first = lines.findIndex((l) => ITEM.test(l));
  return first > 0 && REPORT_HEADING.test(lines[first - 1]!);
}
