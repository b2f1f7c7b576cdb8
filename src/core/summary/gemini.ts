/**
 * Gemini CLI chat-log records in the summary's facts. The chat log
 * (`~/.gemini/tmp/<project>/chats/session-*.jsonl`) holds `user` records
 * (`content: [{text}]` or tool results `[{functionResponse}]`) and `gemini`
 * records (`content` text, `tokens`, `model`); a `gemini` record is written
 * again with `toolCalls` (`name`, `args`, `status`, `result`) once they ran.
 * `$set` patch lines and the header carry no facts.
 */
import { noteLatest } from "./collect.ts";
import { noteStep, recordFailure, recordSuccess } from "./steps.ts";
import { addFile } from "./files.ts";
import { onUserText } from "./user-turns.ts";
import type { Facts } from "./facts.ts";
import { isMeaningfulCommand } from "./goal.ts";
import { oneLine, push } from "./ring.ts";
import { count } from "../usage.ts";
import { noteCommand, onTrackerStep } from "./command-steps.ts";
import { noteAgentWords } from "./remaining.ts";

/** Gemini CLI tools whose successful calls change a file (`file_path`). */
const GEMINI_FILE_TOOLS = new Set(["write_file", "replace"]);

/** Tool calls remembered for dedupe (a record repeats its calls). */
const MAX_SEEN = 5000;

/** Adds one Gemini CLI record to the facts (in place). */
export function addGeminiRecord(f: Facts, e: Record<string, any>): void {
  if (e.type === "user") {
    // Tool results come back as functionResponse parts: not something the user typed.
    if (e.content.some((p: any) => p && typeof p === "object" && p.functionResponse)) return;
    onUserText(
      f,
      e.content.map((p: any) => ({ type: "text", text: typeof p?.text === "string" ? p.text : "" })),
    );
    return;
  }
  const t = e.tokens;
  if (t && typeof t === "object") {
    const tokens = count(t.input) + count(t.tool);
    f.peakTokens = Math.max(f.peakTokens, tokens);
    noteLatest(f, tokens, e.timestamp);
    if (typeof e.model === "string") f.model = e.model;
  }
  // The record comes twice (the second time with its tool calls): its text counts once.
  if (typeof e.content === "string" && e.content.trim() && !Array.isArray(e.toolCalls)) {
    f.lastAgentText = oneLine(e.content, 400);
    noteAgentWords(f, e.content);
    push(f.agentTexts, oneLine(e.content, 300));
    push(f.decisionLines, f.line);
    f.lastAgentLine = f.line;
  }
  if (Array.isArray(e.toolCalls)) for (const call of e.toolCalls) if (call && typeof call === "object") onCall(f, call);
}

// --- internal ---

function onCall(f: Facts, call: Record<string, any>): void {
  const id = typeof call.id === "string" ? call.id : "";
  if (!id || f.pending.has(`gemini:${id}`)) return;
  if (f.pending.size >= MAX_SEEN) f.pending.delete(f.pending.keys().next().value!);
  f.pending.set(`gemini:${id}`, { name: "(done)", input: {} }); // seen: the record repeats its calls
  const name = typeof call.name === "string" ? call.name : "unknown";
  const args = call.args && typeof call.args === "object" ? (call.args as Record<string, unknown>) : {};
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
function resultText(call: Record<string, any>): string {
  const parts: any[] = Array.isArray(call.result) ? call.result : [];
  return parts
    .map((p) => p?.functionResponse?.response)
    .map((r) => (typeof r?.output === "string" ? r.output : typeof r?.error === "string" ? r.error : ""))
    .join("\n");
}

/** The shell's exit code from `Exit Code: N` in the output; 0 when none is shown. */
function exitCode(output: string): number {
  const m = /Exit Code: (-?\d+)/.exec(output);
  return m ? Number(m[1]) : 0;
}
