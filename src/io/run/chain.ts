/** What `ctx run` reads and marks between legs: a leg's session state, the next leg's prompt and chain. */
import { basename, dirname } from "node:path";
import type { Env } from "../../core/deps.ts";
import { layout, STATE_DIRS } from "../../core/layout.ts";
import { buildResumePrompt } from "../../core/resume/prompt.ts";
import { goalLine } from "../../core/run/report.ts";
import { markConsumedByCli } from "../resume/state.ts";
import { openTaskIdsIn, readSummaryIn } from "../resume/summaries.ts";
import { loadState } from "../session/store.ts";
import { taskListState } from "../session/task-list.ts";

/** What ctx's hooks recorded of a leg's session. */
export interface LegSession {
  /** ctx's hooks kept a state for it (they are wired). */
  tracked: boolean;
  usedPct: number;
  toolCalls: number;
}

/** The state ctx's hooks kept of session `sid` under `root`. */
export function legSession(root: string, sid: string, now: number): LegSession {
  const path = layout(root).stateFile(sid);
  const s = path ? loadState(path, now) : undefined;
  return { tracked: s !== undefined, usedPct: s?.used_pct ?? 0, toolCalls: s?.tool_calls ?? 0 };
}

/**
 * The prompt of a leg after the first: the run's goal (the user's own words), then the resume
 * prompt built from the previous leg's summary as `ctx resume` builds it (the task list is kept
 * through CLAUDE_CODE_TASK_LIST_ID in `env`). The summary is marked consumed, so the leg's
 * SessionStart hook does not offer it again. Undefined when the summary cannot be read.
 */
export function legPrompt(root: string, goal: string, summaryPath: string, env: Env, now: number): string | undefined {
  const text = readSummaryIn(root, summaryPath);
  if (text === undefined) return undefined;
  const resume = buildResumePrompt(
    text,
    summaryPath,
    "prompt",
    taskListState(env),
    openTaskIdsIn(env, root, summaryPath),
  );
  if (basename(dirname(summaryPath)) === STATE_DIRS.records) {
    try {
      markConsumedByCli(root, basename(summaryPath), now);
    } catch {
      // the ledger is a convenience: without it the hook only hints at the summary
    }
  }
  return `${goalLine(goal)}\n\n${resume}`;
}
