/**
 * Codex CLI rollout lines in the summary's facts (codex-rollout.ts reads the figures).
 * `response_item` lines hold the user's and the agent's messages, `function_call` (`exec_command`
 * with `{cmd}`) and its `function_call_output` (the exit code is in the text: `Process exited with
 * code N`), `custom_tool_call` `apply_patch` and its output; `compacted` is a compaction; the
 * `token_count` right before it is the compaction request's, not the context's.
 */
import { execExitCode, execOutput, patchFiles, rolloutUsage } from "./codex-rollout.ts";
import { noteLatest } from "../summary/collect.ts";
import { describeTool, noteStep, recordFailure, recordSuccess } from "../summary/steps.ts";
import type { Facts } from "../summary/facts.ts";
import { type PatchChange, patchChanges, scriptPatches } from "./codex-patch.ts";
import { addFile, deleteFile, moveFile } from "../summary/files.ts";
import { isMeaningfulCommand } from "../summary/goal.ts";
import { noteAgentMessage } from "../summary/remaining.ts";
import { onPlanUpdate } from "../summary/tasks.ts";
import { noteCommand, onTrackerStep } from "../summary/command-steps.ts";
import { onRejected, onUserText } from "../summary/user-turns.ts";
import { fieldsOf, isObject } from "../json.ts";

/** The user messages Codex writes itself: `<environment_context>`, `<user_instructions>`, AGENTS.md, … */
const CODEX_CONTEXT = /^\s*(?:<[a-z_]+>|# AGENTS\.md instructions for )/;

/** Calls remembered until their output comes (keys `codex:<call_id>`). */
const MAX_SEEN = 5000;

/** Adds one rollout line to the facts (in place). */
export function addCodexLine(f: Facts, e: Record<string, unknown>): void {
  const p = e.payload;
  if (!isObject(p)) return;
  if (e.type === "compacted") return onCompacted(f, p);
  if (e.type === "turn_context" && typeof p.model === "string") f.model = p.model;
  // Each turn's own window (`task_started`, `token_count`): a model switch changes it.
  const w = e.type === "event_msg" ? rolloutUsage(e)?.windowSize : undefined;
  if (w) f.windowSize = w;
  if (e.type === "event_msg") onTurnEvent(f, p);
  if (e.type === "event_msg" && p.type === "token_count") {
    // The context is the last request's (`last_token_usage`), never the thread's cumulative `total_token_usage`.
    const u = rolloutUsage(e);
    if (u?.usedTokens) {
      f.codexBefore = { peak: f.peakTokens, latest: f.latestTokens, at: f.latestAtMs };
      f.peakTokens = Math.max(f.peakTokens, u.usedTokens);
      noteLatest(f, u.usedTokens, e.timestamp);
    }
    return;
  }
  if (e.type !== "response_item") return;
  if (p.type === "message") return onMessage(f, p);
  if (p.type === "function_call" || p.type === "custom_tool_call") return onCall(f, p);
  if (p.type === "function_call_output" || p.type === "custom_tool_call_output") return onOutput(f, p);
}

// --- internal ---

/**
 * A turn's start and end (`task_started`, `task_complete`); `turn_aborted` ends it too, and with
 * `reason: "interrupted"` it is the user's interrupt (other reasons: a turn replaced, a review ended).
 */
function onTurnEvent(f: Facts, p: Record<string, unknown>): void {
  if (p.type === "user_message") onUserMessageEvent(f, p);
  else if (p.type === "task_started" || p.type === "turn_started") f.turnMarks.started = f.line;
  else if (p.type === "task_complete" || p.type === "turn_complete") f.turnMarks.ended = f.line;
  else if (p.type === "turn_aborted") {
    f.turnMarks.ended = f.line;
    if (p.reason === "interrupted") {
      f.interruptLine = f.line;
      f.interrupts += 1;
    }
  }
}

/** The compaction's own token_count is undone: it measured the compaction request, not the context. */
function onCompacted(f: Facts, p: Record<string, unknown>): void {
  f.compactions += 1;
  if (f.codexBefore) {
    f.peakTokens = f.codexBefore.peak;
    f.latestTokens = f.codexBefore.latest;
    f.latestAtMs = f.codexBefore.at;
  }
  // The compaction's reply came as an assistant message: it is the summary, not the agent's words.
  const message = typeof p.message === "string" ? p.message : "";
  const last = f.agentTexts.items.at(-1);
  if (last && message.includes(last.slice(0, 60))) {
    f.agentTexts.items.pop();
    f.agentTexts.total -= 1;
    f.turnTexts = Math.max(0, f.turnTexts - 1);
  }
}

function text(p: Record<string, unknown>): string {
  const content: unknown[] = Array.isArray(p.content) ? p.content : [];
  return content
    .map((c) => {
      const t = fieldsOf(c).text;
      return typeof t === "string" ? t : "";
    })
    .join("\n");
}

function onMessage(f: Facts, p: Record<string, unknown>): void {
  const t = text(p);
  if (p.role === "assistant" && t.trim()) {
    noteAgentMessage(f, t);
    // The turn's reply (`phase: "final_answer"`) answers it, though `task_complete` may not be written yet.
    if (p.phase === "final_answer") f.turnMarks.ended = f.line;
  } else if (p.role === "user" && !CODEX_CONTEXT.test(t)) {
    closeAnsweredPlan(f);
    onUserText(f, [{ type: "text", text: t }]);
  } else if (p.role === "user") {
    // Codex's own context (environment, instructions, AGENTS.md) comes as user messages: not typed by the user,
    // unless the `user_message` event that follows says the user sent it (a prompt that begins `<task>…`).
    f.codexTagged = t;
  }
}

/** The `user_message` event of a user message that began with a tag: the user's words after all. */
function onUserMessageEvent(f: Facts, p: Record<string, unknown>): void {
  const tagged = f.codexTagged;
  f.codexTagged = undefined;
  if (!tagged || typeof p.message !== "string" || p.message.trim() !== tagged.trim()) return;
  closeAnsweredPlan(f);
  onUserText(f, [{ type: "text", text: tagged }]);
}

/**
 * A new request after a turn that was answered (its final answer given, not interrupted): the steps
 * of a plan that turn wrote and never marked done are left behind, not open work (`update_plan` is
 * the plan of one task; a plan the next turn goes on with is written again).
 */
function closeAnsweredPlan(f: Facts): void {
  const end = f.turnMarks.ended;
  if (end === 0 || f.interruptLine >= end) return;
  if (f.todos && (f.todos[0]?.evidence?.at(-1) ?? end) < end) f.todos = f.todos.filter((t) => t.status === "completed");
}

function onCall(f: Facts, p: Record<string, unknown>): void {
  const id = typeof p.call_id === "string" ? p.call_id : "";
  if (!id) return;
  let input: Record<string, unknown> = {};
  let name = typeof p.name === "string" ? p.name : "unknown";
  if (p.type === "custom_tool_call") {
    const patch = typeof p.input === "string" ? p.input : "";
    // `path` names what the patch worked on (the summary's "apply_patch a.ts, b.ts").
    input = {
      patch,
      path: patchFiles(patch)
        .map((x) => x.path)
        .join(", "),
    };
  } else
    try {
      const args: unknown = JSON.parse(typeof p.arguments === "string" ? p.arguments : "{}");
      input = args && typeof args === "object" ? (args as Record<string, unknown>) : {};
    } catch {
      input = {};
    }
  // The plan tool: its steps are the session's tasks, like TodoWrite's.
  if (name === "update_plan") onPlanUpdate(f, input);
  // The shell is `exec_command {cmd}`: recorded as Claude Code's Bash, so one set of rules reads it.
  if (name === "exec_command") {
    name = "Bash";
    input = { command: String(input.cmd ?? "") };
  }
  // A patch applied from a script (a shell heredoc, a code-mode `exec` calling tools.apply_patch).
  const script =
    name === "Bash" ? String(input.command) : name === "exec" && typeof p.input === "string" ? p.input : "";
  const patches = script ? scriptPatches(script, name === "Bash" ? "shell" : "code") : [];
  if (patches.length) input = { ...input, patches };
  if (f.pending.size >= MAX_SEEN) f.pending.delete(f.pending.keys().next().value!);
  f.pending.set(`codex:${id}`, { name, input, line: f.line });
  f.lastAgentLine = f.line;
  f.lastToolLine = f.line;
}

function onOutput(f: Facts, p: Record<string, unknown>): void {
  const id = typeof p.call_id === "string" ? p.call_id : "";
  const call = f.pending.get(`codex:${id}`);
  if (!call) return;
  f.pending.delete(`codex:${id}`);
  f.lastToolLine = f.line;
  f.toolResults += 1;
  const raw = typeof p.output === "string" ? p.output : JSON.stringify(p.output ?? "");
  // The user declined the approval: a call turned down, neither a failure nor a success.
  if (/^\s*(?:exec command|patch) rejected by user\b/.test(raw))
    return onRejected(f, call.name, call.input, describeTool(call.name, call.input), "");
  const code = execExitCode(raw);
  const output = call.name === "Bash" ? execOutput(raw) : raw;
  const command = call.name === "Bash" ? String(call.input.command ?? "") : "";
  const failed =
    (code !== undefined && code !== 0) ||
    (call.name === "apply_patch" && /^\s*(error|failed|verification failed)/im.test(raw));
  if (command) noteCommand(f, command, !failed, call.line ? [call.line, f.line] : [f.line]);
  if (failed) return recordFailure(f, call.name, call.input, output, call.line ? [call.line, f.line] : [f.line]);
  recordSuccess(f, call.name, call.input, output);
  if (command) onTrackerStep(f, command, output);
  if (call.name === "apply_patch" || (command && isMeaningfulCommand(command))) noteStep(f);
  // A script's own exit code may hide its patch's failure: Codex's refusal in the output says it.
  const refused = /apply_patch verification failed|invalid patch|failed to apply patch/i.test(raw);
  const changes: PatchChange[] =
    call.name === "apply_patch"
      ? patchChanges(String(call.input.patch ?? ""))
      : refused
        ? []
        : ((call.input.patches as PatchChange[]) ?? []);
  for (const c of changes) applyChange(f, c);
}

/** One file a successful patch changed: added or updated, moved, or deleted. */
function applyChange(f: Facts, c: PatchChange): void {
  if (c.op === "delete") return deleteFile(f, c.path);
  if (c.moveTo) return moveFile(f, "apply_patch", c.path, c.moveTo);
  addFile(f, "apply_patch", { file_path: c.path });
}
