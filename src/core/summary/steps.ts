import { failureKey, isLookup, noteFailure, noteSuccess, SHELL_TOOLS, successKeys } from "./errors.ts";
import type { Facts } from "./facts.ts";
import { achievedIntents } from "./intent.ts";
import { oneLine, push } from "./ring.ts";
import { noteOk } from "./still-failing.ts";

/** The shell tools of the clients (Codex's `exec_command` is recorded as Bash). */

/**
 * A failed tool call (either agent's transcript): listed among the errors, and the newest
 * attempt of its intent until a later call achieves it (errors.ts).
 */
export function recordFailure(
  f: Facts,
  tool: string,
  input: Record<string, unknown>,
  output: string,
  evidence: number[] = [f.line],
): void {
  const key = failureKey(tool, input, output);
  if (!isLookup(tool, input)) f.workSteps += 1;
  const error = {
    tool,
    target: toolTarget(tool, input),
    message: oneLine(output, 240),
    evidence: evidence.filter((n) => n > 0),
    step: f.workSteps,
    said: f.agentTexts.total,
    ...(key !== null ? { attempt: true } : {}),
  };
  push(f.errors, error);
  if (key !== null) f.attempts += 1;
  noteFailure(f, key, error);
}

/** The newest step that changed something is the last success, on the line being read. */
export function noteStep(f: Facts): void {
  f.lastStep = f.lastSuccess;
  f.lastStepLine = f.line;
}

/** A plan file in a client's own folder (`~/.<client>/plans/<name>.md`): plan mode writes it while planning. */
const PLAN_FILE = /\/\.[^/]+\/plans\/[^/]+\.md$/;

/** A tool call that succeeded (either agent's transcript): counted, the last success, what it achieved noted. */
export function recordSuccess(f: Facts, tool: string, input: Record<string, unknown>, output = ""): void {
  f.successes += 1;
  if (!isLookup(tool, input)) f.workSteps += 1;
  f.lastSuccess = describeTool(tool, input);
  // read as intent.ts reads a command line: `git -c user.name=… commit` and `bash -c 'git commit …'` too
  if (SHELL_TOOLS.has(tool) && achievedIntents(String(input.command ?? "")).some((it) => it.head === "git commit"))
    f.lastCommitLine = f.line;
  const keys = successKeys(tool, input, output);
  noteSuccess(f, keys);
  const path = input.file_path ?? input.notebook_path ?? input.path;
  // A plan approved, or work on files after one turned down (plan mode over: its feedback was acted on).
  const onFile = typeof path === "string" && !PLAN_FILE.test(path);
  const worked = !isLookup(tool, input) && (onFile || f.lastCommitLine === f.line);
  if (tool === "ExitPlanMode" || worked) f.planTurnedDown = null;
  if (!isLookup(tool, input)) noteOk(f, keys, typeof path === "string" ? path.split(", ").filter(Boolean) : []);
}

/** The text of a tool result (a string, or its text blocks joined). */
export function resultText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content))
    return content
      .filter((b) => b?.type === "text")
      .map((b) => String(b.text ?? ""))
      .join("\n");
  return "";
}

/** A short description of a tool call: `Edit src/a.ts`, `Bash: npm test`. */
export function describeTool(name: string, input: Record<string, unknown>): string {
  const target = toolTarget(name, input);
  return target ? `${name} ${target}` : name;
}

/** The argument that says what a tool call worked on. */
export function toolTarget(name: string, input: Record<string, unknown>): string {
  const s = (k: string) => (typeof input[k] === "string" ? (input[k] as string) : "");
  if (SHELL_TOOLS.has(name)) return oneLine(s("command"), 160);
  if (name === "TaskUpdate") return `#${s("taskId")}${s("status") ? ` → ${s("status")}` : ""}`;
  if (name === "TaskCreate") return oneLine(s("subject"), 120);
  return oneLine(
    s("file_path") || s("notebook_path") || s("path") || s("pattern") || s("url") || s("description"),
    160,
  );
}
