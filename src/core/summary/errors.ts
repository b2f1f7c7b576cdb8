/**
 * Which failed tool calls are still open: a failure is keyed by what it tried
 * (intent.ts for shell commands, the file for file tools) and resolved by a
 * later success that achieved the same. The rule, with examples, is in
 * docs/track-finalize.md, "Which errors are still open". Pure.
 */
import type { ErrorItem, Facts } from "./facts.ts";
import { isMeaningfulCommand } from "./goal.ts";
import { achievedIntents, failedIntent, type Intent } from "./intent.ts";
import { oneLine } from "./ring.ts";

/** Tools whose successful calls modify a file. */
const WRITE_TOOLS = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit", "write_file", "replace"]);
/** Tools that only look: a failure is an answer (the path is missing, nothing matched), not open work. */
const LOOKUP_TOOLS = new Set([
  "Read",
  "Glob",
  "Grep",
  "LS",
  "NotebookRead",
  "read_file",
  "read_many_files",
  "glob",
  "search_file_content",
  "list_directory",
]);
/** The tools that run a command line, by the names the clients give them (PowerShell: on Windows). */
export const SHELL_TOOLS = new Set(["Bash", "PowerShell", "run_shell_command"]);
/** Tools whose failure leaves no work open: a question, a search for tools or pages, a look at a background task. */
const NO_WORK_TOOLS = new Set([
  "AskUserQuestion",
  "ToolSearch",
  "WebFetch",
  "WebSearch",
  "BashOutput",
  "TaskOutput",
  "KillShell",
  "TaskStop",
  "EnterPlanMode",
  "ExitPlanMode",
  "ListMcpResourcesTool",
]);
/**
 * A call the user refused or interrupted, one cancelled because a parallel call failed, or one the
 * client refused before it ran (a malformed call: `InputValidationError`, `No such tool available`):
 * nothing of its own to fix.
 */
const NOT_A_FAILURE =
  /^(?:<tool_use_error>(?:Sibling tool call errored|(?:Error: )?(?:InputValidationError|No such tool available|Invalid tool parameters))|The user doesn't want to proceed with this tool use|\[Request interrupted by user|(?:Error: )?No such tool available)/;
/** A redirection that writes a file (not `2>&1`, not `/dev/null`). */
const WRITES_FILE = /(?:^|[^<>])>{1,2}[ \t]*(?!&|\/dev\/null\b)[^\s&|;<>]/;
/** A failure that says its goal already holds: a commit with everything committed. */
const ALREADY_DONE = /nothing to commit, working tree clean/;

/** Output that reports failures: a hidden step (`mix test 2>&1 | tail -5`) did not achieve its intent. */
const SHOWS_FAILURE =
  /\b[1-9]\d* (?:failures?|failed|errors?)\b|^(?:FAIL|FAILED|ERROR)\b|^error(?:\[\w+\])?:|\berror TS\d+:/im;

/** Most open errors and achieved keys one session remembers (the oldest go first). */
const MAX_OPEN = 300;
const MAX_ACHIEVED = 5000;

/**
 * True for a call that only looks (a lookup tool, a read-only command, a question, a search for
 * tools): it moves no work on, so it is no step of the work ("the session's final steps").
 */
export function isLookup(tool: string, input: Record<string, unknown>): boolean {
  if (LOOKUP_TOOLS.has(tool) || NO_WORK_TOOLS.has(tool)) return true;
  return SHELL_TOOLS.has(tool) && !isMeaningfulCommand(String(input.command ?? ""));
}

/**
 * The key a failed call is listed under (failures with the same key are one
 * intent, the newest shown), or null when the failure leaves nothing open: a
 * lookup (Read, Glob, Grep, a read-only command such as `ls`, `cat`, `git log`),
 * a call the user refused or interrupted, a call cancelled with a failing
 * sibling, a commit with nothing to commit, a line of only set-up and checks.
 */
export function failureKey(tool: string, input: Record<string, unknown>, output: string): string | null {
  if (
    NOT_A_FAILURE.test(output.trim()) ||
    ALREADY_DONE.test(output) ||
    LOOKUP_TOOLS.has(tool) ||
    NO_WORK_TOOLS.has(tool)
  )
    return null;
  // A tool name the client never had (`Task<parameter …>` written into the name) is a malformed call.
  if (!/^[\w.:-]+$/.test(tool)) return null;
  // A skill whose own `!` command failed is judged by that command: a lookup there (`git log …`) leaves nothing open.
  const inSkill = SKILL_COMMAND.exec(output);
  if (inSkill && !SHELL_TOOLS.has(tool)) return failureKey("Bash", { command: inSkill[1] }, "");
  if (SHELL_TOOLS.has(tool)) {
    const command = String(input.command ?? "");
    if (!isMeaningfulCommand(command)) return null;
    const intent = failedIntent(command);
    if (intent) return runKey(intent);
    // Nothing but set-up, output and checks (`cd x`, `test -f x`, `source venv/bin/activate`): open only when it wrote a file.
    return WRITES_FILE.test(command) ? `bash:${oneLine(command, 160)}` : null;
  }
  return plainKey(tool, input);
}

/**
 * The keys a successful call achieved: one per intent target (or the whole), the file it wrote, the call
 * itself; a step whose status the command line hid counts only when its output reports no failure.
 */
export function successKeys(tool: string, input: Record<string, unknown>, output = ""): string[] {
  if (!SHELL_TOOLS.has(tool)) return [plainKey(tool, input)];
  const command = String(input.command ?? "");
  const keys: string[] = [];
  const intents = achievedIntents(command);
  const failing = intents.some((it) => it.hidden) && SHOWS_FAILURE.test(output);
  for (const it of intents)
    if (it.hidden && failing) continue;
    else if (it.targets.length === 0) keys.push(`run:${it.head}`);
    else
      for (const t of it.targets) {
        keys.push(`run:${it.head} @ ${t}`);
        // the same file named from another directory (`node assets/build.js`, then `cd assets && node build.js`)
        const file = fileName(t);
        if (file) keys.push(`run:${it.head} @ ~${file}`);
      }
  // A line with no intent (only `echo`, `cd`, …) is matched by its text, as its failure is.
  return keys.length ? keys : [`bash:${oneLine(command, 160)}`];
}

/**
 * True when `achieved` resolves the failure keyed `key`: the same key, or for a
 * command the same program and subcommand run on the whole (no targets) or on
 * every target the failure named. Keys of older twins (`bash:<command>`) are
 * read by their command's intent.
 */
export function isResolved(key: string, achieved: ReadonlySet<string>): boolean {
  if (achieved.has(key)) return true;
  if (key.startsWith("bash:")) {
    const intent = failedIntent(key.slice(5));
    return intent !== null && isResolved(runKey(intent), achieved);
  }
  if (!key.startsWith("run:")) return false;
  const at = key.indexOf(" @ ");
  if (at < 0) return false;
  const whole = key.slice(0, at);
  return (
    achieved.has(whole) ||
    key
      .slice(at + 3)
      .split(" ")
      .every(
        (t) => achieved.has(`${whole} @ ${t}`) || (fileName(t) !== null && achieved.has(`${whole} @ ~${fileName(t)}`)),
      )
  );
}

/**
 * Notes a failed call: the newest attempt of its intent (replacing an older one),
 * and what it tried is no longer achieved (a success before it resolves nothing).
 */
export function noteFailure(f: Facts, key: string | null, error: ErrorItem): void {
  if (key === null) return;
  f.unresolved.delete(key);
  if (f.unresolved.size >= MAX_OPEN) f.unresolved.delete(f.unresolved.keys().next().value!);
  f.unresolved.set(key, error);
  const at = key.startsWith("run:") ? key.indexOf(" @ ") : -1;
  if (at < 0) return void f.succeeded.delete(key);
  const whole = key.slice(0, at);
  f.succeeded.delete(whole);
  for (const t of key.slice(at + 3).split(" ")) {
    f.succeeded.delete(`${whole} @ ${t}`);
    const file = fileName(t);
    if (file) f.succeeded.delete(`${whole} @ ~${file}`);
  }
}

/** Notes what a successful call achieved and drops the open errors it resolves. */
export function noteSuccess(f: Facts, keys: string[]): void {
  for (const k of keys) {
    f.succeeded.delete(k); // re-insert: newest last
    f.succeeded.add(k);
  }
  // Full: keep the newest half (at once: deleting the oldest one by one makes every insert slow).
  if (f.succeeded.size > MAX_ACHIEVED) f.succeeded = new Set([...f.succeeded].slice(-MAX_ACHIEVED / 2));
  for (const k of keys) f.unresolved.delete(k);
  // Only a command's intent resolves more than its own key (the whole, or targets over several calls).
  if (keys.some((k) => k.startsWith("run:")))
    for (const k of f.unresolved.keys()) if (k.startsWith("run:") && isResolved(k, f.succeeded)) f.unresolved.delete(k);
}

// --- internal ---

/** The `!` command of a skill or slash command that failed before it ran (Claude Code's message). */
const SKILL_COMMAND = /Bash command failed for pattern "!`([^`]{1,2000})`"/;

/** The file name of a target that names a file by a path (`assets/build.js` → `build.js`), else null. */
function fileName(target: string): string | null {
  const m = /(?:^|\/)([^/\s]+\.[A-Za-z0-9]{1,8})$/.exec(target);
  return m ? m[1]! : null;
}

function runKey(it: Intent): string {
  return it.targets.length ? `run:${it.head} @ ${it.targets.join(" ")}` : `run:${it.head}`;
}

/** A file tool's file; another tool's name and main argument. */
function plainKey(tool: string, input: Record<string, unknown>): string {
  const s = (k: string) => (typeof input[k] === "string" ? (input[k] as string) : "");
  const path = s("file_path") || s("notebook_path") || s("path");
  if (WRITE_TOOLS.has(tool) && path) return `file:${path}`;
  return `${tool}:${oneLine(path || s("pattern") || s("url") || s("description") || s("task_id"), 160)}`;
}
