/**
 * What a user line of a Claude Code transcript is: a request the user typed (or queued while the
 * agent worked, or gave with a slash command), a shell command the user ran with `!`, an interrupt,
 * or client bookkeeping that is nobody's request. Also the tool results that are the user
 * rejecting a tool call or a plan (with the feedback they typed), which are not errors. Pure.
 */
import { fieldsOf } from "../json.ts";

/** How one user message reads. */
export type UserLine =
  | { kind: "request"; text: string }
  | { kind: "shell"; command: string }
  | { kind: "interrupt" }
  | { kind: "none" };

/**
 * Built-in slash commands that are no request for the agent (settings, views, session control).
 * `/compact` is here too: its arguments are directions for the compaction summary.
 */
const LOCAL_COMMANDS = new Set([
  "add-dir",
  "agents",
  "bashes",
  "clear",
  "compact",
  "config",
  "context",
  "cost",
  "doctor",
  "exit",
  "export",
  "help",
  "hooks",
  "ide",
  "login",
  "logout",
  "mcp",
  "memory",
  "model",
  "permissions",
  "plugin",
  "quit",
  "release-notes",
  "resume",
  "rewind",
  "status",
  "statusline",
  "theme",
  "upgrade",
  "usage",
  "vim",
]);

/** The text blocks of a message's content (a string or blocks), joined, without injected reminders or IDE context. */
function plainText(content: unknown): string {
  let text = "";
  if (typeof content === "string") text = content;
  else if (Array.isArray(content))
    text = content
      .filter((b) => b?.type === "text" && typeof b.text === "string")
      .map((b) => b.text)
      .join("\n");
  return text
    .replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, "")
    .replace(/<hook_context>[\s\S]*?<\/hook_context>/g, "")
    .replace(IDE_CONTEXT, "")
    .trim();
}

/**
 * What an IDE extension puts before the user's words (the file they had open, the lines they had
 * selected): the client itself strips these blocks when it shows the message (2.1.332 binary).
 */
const IDE_CONTEXT = /<(ide_opened_file|ide_selection)(?:\s[^>]*)?>[\s\S]*?<\/\1>\n?/g;

/** Reads a user message's content for what it is. */
export function readUserLine(content: unknown): UserLine {
  const text = plainText(content);
  if (!text || isTaskNotice(text)) return { kind: "none" };
  if (text.startsWith("[Request interrupted")) return { kind: "interrupt" };
  const shell = /^<bash-input>([\s\S]*?)<\/bash-input>/.exec(text);
  if (shell) return shell[1]!.trim() ? { kind: "shell", command: shell[1]!.trim() } : { kind: "none" };
  const name = /<command-name>\s*\/?([^<\s]+)\s*<\/command-name>/.exec(text);
  if (name) {
    const command = name[1]!;
    if (LOCAL_COMMANDS.has(command.toLowerCase())) return { kind: "none" };
    const args = /<command-args>([\s\S]*?)<\/command-args>/.exec(text)?.[1]?.trim() ?? "";
    return { kind: "request", text: args ? `/${command} ${args}` : `/${command}` };
  }
  // A slash command as plain text (a queued `/clear`): the same rule as the tagged form.
  const typed = /^\/([\w:.-]+)(?:\s+([\s\S]*))?$/.exec(text);
  if (typed && LOCAL_COMMANDS.has(typed[1]!.toLowerCase())) return { kind: "none" };
  if (
    /^<(bash-stdout|bash-stderr|command-|local-command-|session_context>|task-notification>|agent-notification>)/.test(
      text,
    ) ||
    text.startsWith("Caveat:") ||
    isTeammateMessage(text)
  )
    return { kind: "none" };
  return { kind: "request", text };
}

/**
 * A message another agent of the user's team sent this session (2.1.2xx agent teams): `<teammate-message
 * teammate_id="…">` after the client's one-line preamble ("Another … session sent a message:"), or queued
 * while the agent worked as `<agent-message from="…">`. The teammate's words, never the user's request.
 */
function isTeammateMessage(text: string): boolean {
  return /^(?:[^\n<]{1,80}:\s*\n)?<(?:teammate|agent)-message[\s>]/.test(text);
}

/**
 * The prompt of a queued message a person typed while the agent worked, or null: a
 * `queue-operation` line with `operation: "enqueue"` (2.1.x), or an `attachment` line of type
 * `queued_command` in `commandMode` `prompt` (newer clients). Task notifications are queued the
 * same way and are not prompts.
 */
export function queuedPrompt(e: Record<string, unknown>): string | null {
  let text: string;
  if (e.type === "queue-operation" && e.operation === "enqueue") text = plainText(e.content);
  else if (e.type === "attachment" && fieldsOf(e.attachment).type === "queued_command") {
    const a = fieldsOf(e.attachment);
    const kind = fieldsOf(a.origin).kind;
    if (a.commandMode !== undefined && a.commandMode !== "prompt") return null;
    if (kind !== undefined && kind !== "human") return null;
    text = plainText(a.prompt);
  } else return null;
  if (!text || isTaskNotice(text)) return null;
  const line = readUserLine(text);
  return line.kind === "request" ? line.text : null;
}

/**
 * A background task's notice the client queues like a prompt (2.1.4x): JSON such as
 * `{"task_id":"b3e1bf6","tool_use_id":"toolu_…","description":"…","task_type":"local_bash"}`,
 * or a `<task-notification>` (`<agent-notification>` for a background subagent, 2.0.x) opening it.
 */
export function isTaskNotice(text: string): boolean {
  const t = text.trim();
  if (/^<(?:task|agent)-notification>/.test(t)) return true;
  if (!t.startsWith("{") || !t.endsWith("}")) return false;
  try {
    const v = JSON.parse(t) as Record<string, unknown>;
    return v !== null && typeof v === "object" && ("task_id" in v || "tool_use_id" in v || "task_type" in v);
  } catch {
    return false;
  }
}

/** The client's words when the user turned down a tool call (Claude Code 2.x). */
const REJECTED = "The user doesn't want to proceed with this tool use.";
const REJECTED_PLAN = "The agent proposed a plan that was rejected by the user.";
const FEEDBACK = /the user said:\s*\n?([\s\S]*)$/;

/**
 * A tool result that is the user turning the call down, not a failure: null for any other result,
 * else the feedback the user typed with it ("" for none).
 */
export function rejection(resultText: string): { feedback: string } | null {
  const t = resultText.trimStart();
  if (!t.startsWith(REJECTED) && !t.startsWith(REJECTED_PLAN) && !t.startsWith("User rejected")) return null;
  const said = FEEDBACK.exec(t)?.[1]?.trim() ?? "";
  return { feedback: said };
}

/** Requests this short are shown with the agent message they answer. */
const SHORT_REQUEST = 60;

/**
 * The agent message a short request answers, or null when the request stands on its own. An answer
 * that names an option (`d`, `2`, `lets do 2`, `option b`) is shown with that option's line; else
 * the end of the message (a question and its options usually close it), cut to `max`.
 */
export function answeredMessage(request: string, agentText: string | null, max = 400): string | null {
  if (!agentText || request.length > SHORT_REQUEST) return null;
  const option = optionPicked(request);
  const at = option ? optionAt(agentText, option) : -1;
  if (at >= 0) {
    const start = Math.max(0, at - 80);
    const end = Math.min(agentText.length, start + max);
    return `${start > 0 ? "…" : ""}${agentText.slice(start, end)}${end < agentText.length ? "…" : ""}`;
  }
  return agentText.length <= max ? agentText : `…${agentText.slice(agentText.length - (max - 1))}`;
}

/** The newest `max` characters of a text as one line (an answer is found near the end of a message). */
export function tailLine(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length <= max ? flat : `…${flat.slice(flat.length - (max - 1))}`;
}

// --- internal ---

/** The option a short answer picks: `d`, `2`, `lets do 2`, `option b`, `go with 3`, or null. */
function optionPicked(request: string): string | null {
  const m =
    /^(?:(?:let'?s|lets)\s+(?:do|go\s+with|take)\s+|(?:go\s+with|take|pick|do)\s+|option\s+|choice\s+|number\s+)?(?:option\s+)?\(?#?([a-z0-9]{1,2})\)?[.!]?(?:\s+please)?$/i.exec(
      request.trim(),
    );
  return m ? m[1]!.toLowerCase() : null;
}

/** Where the agent's message lists option `o` (`[d]`, `d)`, `2.`, `**2**`, `Option 2`), or -1. */
function optionAt(text: string, o: string): number {
  const q = o.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const m = new RegExp(
    `(?:\\[${q}\\]|\\(${q}\\)|(?:^|\\s)${q}[).:](?=\\s)|\\*\\*${q}[).:]?\\*\\*|\\boption\\s+${q}\\b)`,
    "i",
  ).exec(text);
  return m ? m.index : -1;
}
