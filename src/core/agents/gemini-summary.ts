/**
 * Gemini CLI chat-log records in the summary's facts. The chat log
 * (`~/.gemini/tmp/<project>/chats/session-*.jsonl`) holds `user` records
 * (`content: [{text}]` or tool results `[{functionResponse}]`) and `gemini`
 * records (`content` text, `tokens`, `model`); a `gemini` record is written
 * again with `toolCalls` (`name`, `args`, `status`, `result`) once they ran.
 * `$set` patch lines and the header carry no facts.
 */
import { noteLatest } from "../summary/collect.ts";
import { noteStep, recordFailure, recordSuccess } from "../summary/steps.ts";
import { addFile } from "../summary/files.ts";
import { onUserText } from "../summary/user-turns.ts";
import type { Facts } from "../summary/facts.ts";
import { isMeaningfulCommand } from "../summary/goal.ts";
import { count } from "../usage.ts";
import { noteCommand, onTrackerStep } from "../summary/command-steps.ts";
import { noteAgentMessage } from "../summary/remaining.ts";
import { fieldsOf, isObject } from "../json.ts";

/** Gemini CLI tools whose successful calls change a file (`file_path`). */
const GEMINI_FILE_TOOLS = new Set(["write_file", "replace"]);

/** Tool calls remembered for dedupe (a record repeats its calls). */
const MAX_SEEN = 5000;

/** Adds one Gemini CLI record to the facts (in place). */
export function addGeminiRecord(f: Facts, e: Record<string, unknown>): void {
  if (e.type === "user") {
    // Tool results come back as functionResponse parts: not something the user typed.
    const content: unknown[] = Array.isArray(e.content) ? e.content : [];
    if (content.some((p) => isObject(p) && p.functionResponse)) return;
    onUserText(
      f,
      content.map((p) => {
        const text = fieldsOf(p).text;
        return { type: "text", text: typeof text === "string" ? text : "" };
      }),
    );
    return;
  }
  const t = e.tokens;
  if (isObject(t)) {
    const tokens = count(t.input) + count(t.tool);
    f.peakTokens = Math.max(f.peakTokens, tokens);
    noteLatest(f, tokens, e.timestamp);
    if (typeof e.model === "string") f.model = e.model;
  }
  // The record comes twice (the second time with its tool calls): its text counts once.
  if (typeof e.content === "string" && e.content.trim() && !Array.isArray(e.toolCalls)) {
    noteAgentMessage(f, e.content);
  }
  if (Array.isArray(e.toolCalls)) for (const call of e.toolCalls) if (isObject(call)) onCall(f, call);
}

// --- internal ---

function onCall(f: Facts, call: Record<string, unknown>): void {
  const id = typeof call.id === "string" ? call.id : "";
  if (!id || f.pending.has(`gemini:${id}`)) return;
  if (f.pending.size >= MAX_SEEN) f.pending.delete(f.pending.keys().next().value!);
  f.pending.set(`gemini:${id}`, { name: "(done)", input: {} }); // seen: the record repeats its calls
  const name = typeof call.name === "string" ? call.name : "unknown";
  const args = fieldsOf(call.args);
  const output = resultText(call);
  const failed = call.status !== "success" || (name === "run_shell_command" && exitCode(output) !== 0);
  f.toolResults += 1;
  const command = name === "run_shell_command" ? String(args.command ?? "") : "";
  if (name === "run_shell_command") noteCommand(f, command, !failed, [f.line]);
  if (failed) {
    const shown = typeof call.resultDisplay === "string" && call.resultDisplay ? call.resultDisplay : output;
    return recordFailure(f, name, args, shown);
  }
  recordSuccess(f, name, args, output);
  if (command) onTrackerStep(f, command, output);
  if (GEMINI_FILE_TOOLS.has(name) || (command && isMeaningfulCommand(command))) noteStep(f);
  if (GEMINI_FILE_TOOLS.has(name)) addFile(f, name, args);
}

/** The text the model got back: the functionResponse outputs (or errors). */
function resultText(call: Record<string, unknown>): string {
  const parts: unknown[] = Array.isArray(call.result) ? call.result : [];
  return parts
    .map((p) => fieldsOf(fieldsOf(fieldsOf(p).functionResponse).response))
    .map((r) => (typeof r.output === "string" ? r.output : typeof r.error === "string" ? r.error : ""))
    .join("\n");
}

/** The shell's exit code from `Exit Code: N` in the output; 0 when none is shown. */
function exitCode(output: string): number {
  const m = /Exit Code: (-?\d+)/.exec(output);
  return m ? Number(m[1]) : 0;
}
