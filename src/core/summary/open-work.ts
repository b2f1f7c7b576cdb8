/**
 * Open work that is not a failure (docs/track-finalize.md, "Open work"): background commands and
 * subagents started and not seen finished, and whether the newest request was ever answered. Pure.
 */
import type { Facts } from "./facts.ts";
import { oneLine } from "./ring.ts";

/** Most background tasks remembered. */
const MAX_BACKGROUND = 50;
/** A command the agent or the user (Ctrl+B) sent to the background, and its id (2.1.x). */
const COMMAND_STARTED = /^\s*Command running in background with ID:\s*([\w-]{3,64})/;
/** A subagent started in the background (`run_in_background`), and its id. */
const AGENT_STARTED = /agentId:\s*([\w-]{3,64})/;
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
    COMMAND_STARTED.exec(output) ?? (input.run_in_background === true ? AGENT_STARTED.exec(output) : null);
  if (started) {
    if (f.background.size >= MAX_BACKGROUND) f.background.delete(f.background.keys().next().value!);
    const what =
      tool === "Bash"
        ? `background command \`${oneLine(String(input.command ?? ""), 120)}\``
        : `background subagent "${oneLine(String(input.description ?? input.subagent_type ?? tool), 120)}"`;
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

/** Open work that is no failure, each said as such, with the lines it came from. */
export interface OpenWork {
  text: string;
  evidence: number[];
}

/**
 * The open work this session left: its newest request unanswered (the session ended mid-turn: no
 * agent message after it), each background command or subagent still running.
 */
export function openWork(f: Facts): OpenWork[] {
  const out: OpenWork[] = [];
  const asked = f.latestLines.at(-1) ?? 0;
  if (f.latestReal !== null && asked > 0 && f.lastAgentLine < asked)
    out.push({
      text: `the last request was never answered (the session ended before the agent replied): "${oneLine(f.latestReal, 160)}"`,
      evidence: [asked],
    });
  for (const b of f.background.values())
    out.push({ text: `${b.what} was still running when the session ended`, evidence: [b.line] });
  return out;
}
