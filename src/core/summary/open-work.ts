/**
 * Open work that is not a failure (docs/track-finalize.md, "Open work"): background commands and
 * subagents started and not seen finished, and whether the newest request was ever answered. Pure.
 */
import type { Facts } from "./facts.ts";
import { askedNotDone } from "./asked.ts";
import { SHELL_TOOLS } from "./errors.ts";
import { remainingWork } from "./remaining.ts";
import { oneLine } from "./ring.ts";

/** Most background tasks remembered. */
const MAX_BACKGROUND = 50;
/** A command the agent or the user (Ctrl+B) sent to the background, and its id (2.1.x). */
const COMMAND_STARTED = /^\s*Command running in background with ID:\s*([\w-]{3,64})/;
/** A subagent started in the background (`run_in_background`), and its id. */
const AGENT_STARTED = /agentId:\s*([\w-]{3,64})/;
/** What the client answers when a subagent runs on its own (`run_in_background`, or a `fork` subagent, 2.1.x). */
const ASYNC_AGENT = /^\s*Async agent launched successfully/;
/** A subagent `SendMessage` woke up to run in the background (2.1.21x), and its id. */
const RESUMED = /resumed (?:from transcript )?in the background[\s\S]*"resumedAgentId"\s*:\s*"([\w-]{3,64})"/;
/** A task's status as a notice or an output read reports it. */
const FINISHED = /<status>\s*(?:completed|failed|killed|stopped|cancelled)\s*<\/status>/i;
const TASK_ID = /<(?:task|agent)[-_]id>\s*([\w-]{3,64})\s*<\/(?:task|agent)[-_]id>/i;

/** Notes a successful result: a call sent to the background, a read of its output, a stop. */
export function onBackgroundResult(
  f: Facts,
  _id: string,
  tool: string,
  input: Record<string, unknown>,
  output: string,
): void {
  const started =
    COMMAND_STARTED.exec(output) ??
    RESUMED.exec(output) ??
    (input.run_in_background === true || ASYNC_AGENT.test(output) ? AGENT_STARTED.exec(output) : null);
  if (started) {
    if (f.background.size >= MAX_BACKGROUND) f.background.delete(f.background.keys().next().value!);
    const what = SHELL_TOOLS.has(tool)
      ? `background command \`${oneLine(String(input.command ?? ""), 120)}\``
      : `background subagent "${oneLine(String(input.description ?? input.subagent_type ?? input.summary ?? tool), 120)}"`;
    f.background.set(started[1]!, { what, line: f.line });
    return;
  }
  const s = (k: string) => (typeof input[k] === "string" ? (input[k] as string) : "");
  if (/^(?:KillShell|KillBash|TaskStop)$/.test(tool)) f.background.delete(s("shell_id") || s("task_id") || s("id"));
  else if (/^(?:BashOutput|TaskOutput|AgentOutputTool)$/.test(tool) && FINISHED.test(output))
    f.background.delete(s("bash_id") || s("task_id") || s("agentId") || TASK_ID.exec(output)?.[1] || "");
}

/** A user line that is a `<task-notification>` (`<agent-notification>`): the task it names has finished. */
export function onNotice(f: Facts, content: unknown): void {
  if (f.background.size === 0) return;
  const text =
    typeof content === "string"
      ? content
      : Array.isArray(content)
        ? content.map((b) => (b?.type === "text" && typeof b.text === "string" ? b.text : "")).join("\n")
        : "";
  if (!/<(?:task|agent)-notification>/.test(text) || !FINISHED.test(text)) return;
  const id = TASK_ID.exec(text)?.[1];
  if (id) f.background.delete(id);
}

/** The line of the agent's newest text message (0: none). */
function lastWords(f: Facts): number {
  return f.decisionLines.items.at(-1) ?? 0;
}

/**
 * The newest request as open work when the session ended before the agent finished it, with the
 * lines that show it: no agent message after it; the user's interrupt after the agent's last act;
 * calls after the agent's last words whose results never came; or the turn ended on a tool call or
 * result instead of the agent's reply (where the client marks turns: a turn started and never
 * completed).
 */
function lastRequestOpen(f: Facts): OpenWork | null {
  const asked = f.latestLines.at(-1) ?? 0;
  if (f.latestReal === null || asked <= 0) return null;
  const said = `"${oneLine(f.latestReal, 300)}"`;
  if (f.lastAgentLine < asked)
    return {
      text: `the last request is unanswered: the session ended before the agent replied to it: ${said}`,
      evidence: [asked],
    };
  const words = lastWords(f);
  if (f.interruptLine > asked && f.interruptLine > f.lastAgentLine)
    return {
      text: `the last request is unanswered: the user interrupted the agent at work on it and the session ended there: ${said}`,
      evidence: [asked, f.interruptLine],
    };
  // Calls the agent made after its last words whose results never came: it was cut off mid-turn.
  const cut = [...f.pending.values()].flatMap((p) => (p.line && p.line > asked && p.line > words ? [p.line] : []));
  if (cut.length > 0)
    return {
      text: `the last request is unanswered: the session ended mid-turn, its last tool calls never returned: ${said}`,
      evidence: [asked, ...cut.slice(-3)],
    };
  const marked = f.turnMarks.started > 0;
  const midTurn = marked
    ? f.turnMarks.started > f.turnMarks.ended && f.lastToolLine > asked
    : f.lastToolLine > asked && f.lastToolLine > words;
  if (midTurn)
    return {
      text: `the last request is unanswered: the session ended mid-turn, after the agent's last tool calls and before its reply: ${said}`,
      evidence: [asked, f.lastToolLine],
    };
  return null;
}

/**
 * Whether `git status --short` (`lines`, paths relative to the project) still shows a file changed:
 * its path (`rel` makes a tool's path relative), the new side of a rename, or an untracked folder
 * holding it.
 */
export function changedInStatus(lines: string[], rel: (path: string) => string): (path: string) => boolean {
  const paths = lines.map((l) => (l.slice(3).split(" -> ").pop() ?? "").replace(/^"|"$/g, ""));
  return (path) => {
    const p = rel(path);
    return paths.some((d) => d === p || (d.endsWith("/") && p.startsWith(d)));
  };
}

/** Open work that is no failure, each said as such, with the lines it came from. */
export interface OpenWork {
  text: string;
  evidence: number[];
}

/**
 * The open work this session left: its newest request unanswered (the session ended mid-turn: no
 * agent message after it, the user's interrupt after the agent's last act, calls whose results
 * never came, or a turn that ended on a tool call instead of the agent's reply), each background
 * command or subagent still running.
 */
export function openWork(f: Facts, stillChanged?: (path: string) => boolean): OpenWork[] {
  const out: OpenWork[] = [];
  const unfinished = lastRequestOpen(f) ?? askedNotDone(f);
  if (unfinished) out.push(unfinished);
  const left = remainingWork(f);
  if (left) out.push(left);
  // A prompt typed while the agent worked and still queued at the end: asked, never read by the agent.
  for (const w of f.waiting.slice(-3))
    out.push({
      text: `a prompt the user typed while the agent worked is unanswered: it was still queued when the session ended: "${oneLine(w.text, 300)}"`,
      evidence: [w.line],
    });
  if (f.planTurnedDown)
    out.push({
      text: `the plan "${f.planTurnedDown.title}" was rejected by the user and no plan was approved after it`,
      evidence: [f.planTurnedDown.line],
    });
  if (f.lastCommitLine > 0) {
    // Where `git status` is known it is the truth: a file it shows clean was committed since.
    const after = [...f.files.values()].filter(
      (x) => !x.deleted && (x.evidence?.at(-1) ?? 0) > f.lastCommitLine && (stillChanged?.(x.path) ?? true),
    );
    if (after.length)
      out.push({
        text: `${after.length} file${after.length === 1 ? "" : "s"} changed after the session's last commit and not committed since: ${after
          .slice(-5)
          .map((x) => `\`${x.path}\``)
          .join(", ")}`,
        evidence: [f.lastCommitLine, ...after.slice(-5).flatMap((x) => x.evidence?.slice(-1) ?? [])],
      });
  }
  for (const b of f.background.values())
    out.push({ text: `${b.what} was still running when the session ended`, evidence: [b.line] });
  return out;
}
