/**
 * OpenCode's store rows in the summary's facts (opencode-rows.ts gives their shape): the user's
 * text parts (not the synthetic ones OpenCode or ctx added; `opencode run`'s quotes around an
 * argument with spaces taken off), the agent's text, tool parts (bash, edit, write, … under Claude
 * Code's tool and field names, so the summary's sections read them alike), each assistant step's
 * context, and compactions.
 */
import { isObject } from "../json.ts";
import { noteLatest } from "../summary/collect.ts";
import { recordFailure, recordSuccess } from "../summary/steps.ts";
import type { Facts } from "../summary/facts.ts";
import { addFile, moveFiles } from "../summary/files.ts";
import { isMeaningfulCommand } from "../summary/goal.ts";
import { noteCommand, onTrackerStep } from "../summary/command-steps.ts";
import { noteAgentMessage } from "../summary/remaining.ts";
import { onUserText } from "../summary/user-turns.ts";
import { messageTokens, totalOf } from "./opencode-rows.ts";

/** OpenCode's tools under Claude Code's names. */
const TOOL_NAMES: Readonly<Record<string, string>> = {
  bash: "Bash",
  edit: "Edit",
  write: "Write",
  read: "Read",
  grep: "Grep",
  glob: "Glob",
  webfetch: "WebFetch",
  todowrite: "TodoWrite",
};

/** Tools whose successful calls change a file. */
const FILE_TOOLS = new Set(["Edit", "Write"]);

/** Adds one OpenCode store record to the facts (in place). */
export function addOpenCodeRow(f: Facts, e: Record<string, unknown>): void {
  const d = e.data as Record<string, unknown>;
  if (e.table === "message") {
    const t = messageTokens(e);
    if (t && d.summary !== true) {
      const used = totalOf(t);
      f.peakTokens = Math.max(f.peakTokens, used);
      const time = isObject(d.time) ? d.time : {};
      const at = typeof time.completed === "number" ? new Date(time.completed).toISOString() : undefined;
      noteLatest(f, used, at);
      if (typeof d.modelID === "string") f.model = d.modelID;
    }
    return;
  }
  if (d.type === "compaction") f.compactions += 1;
  else if (d.type === "text" && typeof d.text === "string" && d.synthetic !== true) onText(f, e.role, d.text);
  else if (d.type === "tool" && isObject(d.state)) onTool(f, d, d.state);
}

// --- internal ---

function onText(f: Facts, role: unknown, text: string): void {
  if (role === "user")
    return onUserText(f, [{ type: "text", text: /^"[^"]*"$/.test(text) ? text.slice(1, -1) : text }]);
  if (role !== "assistant" || !text.trim()) return;
  noteAgentMessage(f, text);
}

function onTool(f: Facts, part: Record<string, unknown>, state: Record<string, unknown>): void {
  if (state.status !== "completed" && state.status !== "error") return;
  f.lastAgentLine = f.line;
  const raw = typeof part.tool === "string" ? part.tool : "unknown";
  const name = TOOL_NAMES[raw] ?? raw;
  const given = isObject(state.input) ? state.input : {};
  const input: Record<string, unknown> = { ...given };
  if (typeof given.filePath === "string") input.file_path = given.filePath;
  const meta = isObject(state.metadata) ? state.metadata : {};
  const output = typeof meta.output === "string" ? meta.output : typeof state.output === "string" ? state.output : "";
  const failed = state.status === "error" || (name === "Bash" && typeof meta.exit === "number" && meta.exit !== 0);
  f.toolResults += 1;
  const command = name === "Bash" ? String(input.command ?? "") : "";
  if (command) noteCommand(f, command, !failed, [f.line]);
  if (failed) return recordFailure(f, name, input, typeof state.error === "string" ? state.error : output);
  recordSuccess(f, name, input, output);
  if (command) onTrackerStep(f, command, output);
  if (FILE_TOOLS.has(name) || (command && isMeaningfulCommand(command))) f.lastStep = f.lastSuccess;
  if (FILE_TOOLS.has(name)) addFile(f, name, input);
  if (command) moveFiles(f, command, "");
}
