/**
 * The parts of the handoff summary that say what to do next: the open items of
 * a command-line tracker (under "Remaining work") and "How to continue",
 * written from what the summary holds (open tasks, open errors, the tracker,
 * uncommitted changes, or nothing open at all). Pure.
 */
import type { SummaryTwin } from "./chain.ts";
import { oneLine } from "./ring.ts";
import type { TrackerState } from "./tracker.ts";

/**
 * Lines about a command-line tracker for "Remaining work": where the tasks were
 * kept, the open items of the last listing (indented, so no resume prompt takes
 * them for client tasks to re-create), what was closed since, and how to list them.
 */
export function trackerLines(t: TrackerState | null, limit: number, hasTasks: boolean): string[] {
  if (!t) return [];
  const tool = `\`${t.tool}\``;
  const out = [
    hasTasks
      ? `- Also tracked with ${tool} (not the client's task tools):`
      : `- (no open tasks in the client's task tools: the work was tracked with ${tool})`,
  ];
  if (t.listedBy === null) out.push(`- ${tool} was used but its open items were never listed in the session.`);
  else if (t.items.length === 0) out.push(`- The last listing, \`${t.listedBy}\`, showed no open items.`);
  else {
    out.push(`- Open when last listed (\`${t.listedBy}\`):`);
    const kept = t.items.slice(0, limit).map((line) => `  - ${line}`);
    if (t.items.length > kept.length) kept.push(`  - and ${t.items.length - kept.length} more`);
    out.push(...kept);
  }
  const created = t.created ?? [];
  if (created.length) {
    out.push("- Created after that listing (still open):");
    out.push(...created.slice(0, limit).map((line) => `  - ${line}`));
    if (created.length > limit) out.push(`  - and ${created.length - limit} more`);
  } else if (t.createdSince) out.push(`- ${t.createdSince} item(s) created after that listing`);
  out.push(`- List what is open now: \`${t.listHint}\``);
  return out;
}

/** The line under "Completed tasks" about items closed in the tracker after its last listing, or none. */
export function trackerClosedLines(t: TrackerState | null, limit: number): string[] {
  if (!t?.closedSince.length) return [];
  const more = t.closedSince.length > limit * 2 ? ` and ${t.closedSince.length - limit * 2} more` : "";
  return [`- Closed in \`${t.tool}\` after its last listing: ${t.closedSince.slice(0, limit * 2).join(", ")}${more}`];
}

/** Under the goal: where a session that began mid-story came from, and the earlier transcript when at hand. */
export function continuesLines(t: SummaryTwin): string[] {
  const c = t.continues;
  if (!c) return [];
  const from = c.kind === "plan" ? "a plan made in an earlier session" : "the client's compaction summary";
  const earlier = c.transcript
    ? c.at_hand
      ? `; the earlier session's transcript: \`${c.transcript}\``
      : `; the earlier session's transcript (\`${c.transcript}\`) is not at hand`
    : "";
  return [`(this session began from ${from}, transcript line ${c.line}${earlier})`];
}

/** The failures that are history, as one line under "Unresolved errors" (none when there were none). */
export function historyLine(t: SummaryTwin): string[] {
  const n = t.errors_history?.count ?? 0;
  if (n === 0) return [];
  return [
    `- ${n} failure${n === 1 ? "" : "s"} along the way, all followed by a success or reported done (history, not open work)`,
  ];
}

/** Open work that is no failure, each said as such, for "Remaining work". */
export function openWorkLines(t: SummaryTwin, gitStatus: string[] | null): string[] {
  const out = t.open_tasks.some((x) => x.list === "plan")
    ? [
        "- (the plan above is the agent's own list from its messages: the session had no task tool to keep it in; keep it in your replies or a file)",
      ]
    : [];
  out.push(...(t.open_work ?? []).map((w) => `- Open work (not a failure): ${w.text}`));
  // A commit or push still failing at the end leaves the work unsaved: that is open work too.
  const last = t.sessions.length - 1;
  for (const e of t.errors.filter((x) => x.session === last && /^run:git (?:commit|push)\b/.test(x.key)).slice(0, 2))
    out.push(
      `- Open: the changes are not ${e.key.startsWith("run:git push") ? "pushed" : "committed"}: the last \`${e.key.slice(4)}\` failed (see Unresolved errors)`,
    );
  if (gitStatus && gitStatus.length > 0)
    out.push(
      `- Open work (not a failure): ${gitStatus.length} uncommitted change${gitStatus.length === 1 ? "" : "s"} in \`git status\``,
    );
  return out;
}

/**
 * "How to continue": the next step the summary's own content points to. It never sends the next
 * agent to redo what a later step did (only failures still open are named), and in a headless leg
 * (`headless`, a `ctx run` leg) never to a user who is not there.
 */
export function howToContinue(t: SummaryTwin, gitStatus: string[] | null, headless = false): string[] {
  const out: string[] = [];
  if (gitStatus && gitStatus.length > 0)
    out.push(
      `- \`git status\` shows ${gitStatus.length} uncommitted change${gitStatus.length === 1 ? "" : "s"}: look at them first, they may be unfinished work.`,
    );
  const err = t.errors[0];
  if (err)
    out.push(
      `- Still failing${t.errors.length > 1 ? ` (${t.errors.length} open errors, newest first)` : ""}: ${err.tool}${err.target ? ` \`${oneLine(err.target, 120)}\`` : ""}. Find out why, fix it and run it again.`,
    );
  const task = t.open_tasks[0];
  if (task)
    out.push(
      `- Carry on with the first open task, #${task.id} ${task.subject}${t.open_tasks.length > 1 ? ` (${t.open_tasks.length} open)` : ""}; do not redo completed tasks.`,
    );
  const tr = t.tracker;
  if (tr)
    out.push(
      `- Tasks are kept in \`${tr.tool}\`: run \`${tr.listHint}\` to see what is open now${openNote(tr)}; keep them there, do not re-create them as client tasks.`,
    );
  const work = t.open_work ?? [];
  for (const w of work)
    out.push(
      w.text.startsWith("the last request is unanswered: the session ended before the agent replied")
        ? "- Answer the last request first: the session ended before the agent replied to it."
        : w.text.startsWith("the last request is unanswered: the user interrupted")
          ? headless
            ? "- The last request was interrupted: check what its last steps did, then finish it."
            : "- The user stopped the agent during the last request: ask whether to carry on with it before running its last steps again."
          : w.text.startsWith("the last request is unanswered: the session ended mid-turn")
            ? "- Finish the last request: the session ended mid-turn; check what its last calls did before running them again."
            : w.text.startsWith("the last request is not finished: it asked to ")
              ? `- Finish the last request: ${w.text.slice("the last request is not finished: ".length).replace(/: ".*$/, "")}; check \`git status\` and \`git log\` first.`
              : / was still running when the session ended$/.test(w.text)
                ? `- Check the ${w.text.replace(/ was still running when the session ended$/, "")}: it was still running when the session ended; read its output before running it again.`
                : `- Open: ${w.text}.`,
    );
  if (!err && !task && work.length === 0) {
    const request = t.latest_request ?? t.goal;
    const report = t.decisions[t.decisions.length - 1];
    out.push(
      `- No open task or error: the last request was ${request ? `"${oneLine(request, 160)}"` : "not found"}${report ? ` and the agent reported: "${oneLine(report, 200)}"` : ""}. ${headless ? "Check that the request is met; if it is, say so and stop." : "Confirm with the user before starting new work."}`,
    );
  }
  return out;
}

/** How many tracker items the session left open: the last listing's, and those created after it. */
function openNote(t: TrackerState): string {
  const created = t.created?.length ?? 0;
  if (!created) return t.items.length ? ` (${t.items.length} left open from the last listing)` : "";
  return ` (${t.items.length + created} open: ${t.items.length} left from the last listing, ${created} created since)`;
}
