/**
 * A session that starts mid-story (docs/track-finalize.md, "Sessions that start mid-story"): its
 * transcript begins with the client's compaction summary (`isCompactSummary`) or with the plan a
 * plan-mode "clear context and implement" hands to the fresh session ("Implement the following
 * plan:"). Its goal is the summary's stated intent, or the plan's title. Pure.
 */
import type { Facts } from "./facts.ts";
import { oneLine } from "./ring.ts";
import { noteRequest, setGoal } from "./user-turns.ts";
import { fieldsOf } from "../json.ts";

/** How the client opens the plan it hands to the fresh session. */
const PLAN_OPENING = /^\s*Implement the following plan:\s*/;

/**
 * Reads the first user line of a main chain that continues earlier work; true when the line was
 * taken here (a compaction summary is nobody's request; a plan is the request, by its title).
 */
export function onFirstUserLine(f: Facts, e: Record<string, unknown>): boolean {
  // A prompt the client wrote above this line but the user typed later (a queue line at the top of
  // a 2.1.2xx transcript) does not make the session start earlier than its compaction or plan.
  const typedBefore = f.goal !== null && !(f.goalAt > 0 && f.lineAt > 0 && f.goalAt > f.lineAt);
  if (typedBefore || (f.goal === null && f.userRequests > 0) || f.midStory !== null) return e.isCompactSummary === true;
  const text = messageText(fieldsOf(e.message).content);
  if (e.isCompactSummary === true) {
    const intent = summaryIntent(text);
    if (intent) setGoal(f, oneLine(`(continued) ${intent}`, 600), f.lineAt, [f.line]);
    f.midStory = { kind: "compaction", line: f.line, ...previousOf(text) };
    return true;
  }
  if (!e.isMeta && PLAN_OPENING.test(text)) {
    // The plan is the user's request too, said by its title (its full text is the plan the agent read).
    f.midStory = { kind: "plan", line: f.line, ...previousOf(text) };
    const goal = oneLine(`Implement the plan: ${planTitle(text.replace(PLAN_OPENING, ""))}`, 600);
    setGoal(f, goal, f.lineAt, [f.line]);
    noteRequest(f, goal, f.lineAt, [f.line]);
    return true;
  }
  return false;
}

/** The intent a compaction summary states: its "Primary Request and Intent" section, else its start. */
export function summaryIntent(text: string): string {
  const m = /Primary Request and Intent:?\**\s*([\s\S]*?)(?:\n\s*\**\d+\.\s+\**[A-Z][^\n]{0,60}:|\n\s*#{1,4}\s|$)/.exec(
    text,
  );
  const body = m?.[1]?.trim() || text.replace(/^[\s\S]*?Summary:\s*/, "").trim();
  return oneLine(body.replace(/^[-*]\s+/gm, ""), 400);
}

/** The plan's title: its first Markdown heading, else its first line. */
export function planTitle(plan: string): string {
  const heading = /^\s*#{1,6}\s+(.+)$/m.exec(plan)?.[1];
  const first = plan.split("\n").find((l) => l.trim() !== "") ?? "";
  return oneLine((heading ?? first).replace(/^(?:Plan|Implementation plan)\s*[:-]\s*/i, ""), 200);
}

// --- internal ---

/** The earlier session's transcript the client names ("read the full transcript at: <path>.jsonl"). */
function previousOf(text: string): { previous?: string } {
  const m = /read the full transcript at:\s*(\/[^\s"'`<>]{1,400}?\.jsonl)\b/.exec(text);
  return m ? { previous: m[1]! } : {};
}

function messageText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .filter((b) => b?.type === "text" && typeof b.text === "string")
      .map((b) => b.text)
      .join("\n");
  return "";
}
