/**
 * Which hooks ctx registers for each agent, and how a ctx hook command is
 * written and recognised (so install can update it and uninstall can remove
 * exactly ctx's entries).
 */
import { shellQuote } from "../shell.ts";

/** The agent whose settings file is edited. */
export type Agent = "claude" | "gemini";

/** One ctx hook to register. */
export interface CtxHookSpec {
  /** The agent's event name, e.g. `PostToolUse` or `AfterTool`. */
  event: string;
  /** The ctx subcommand and its arguments, e.g. `track` or `resume --hook`. */
  sub: CtxSub;
  /** Timeout in the agent's unit: seconds for Claude Code, milliseconds for Gemini CLI. */
  timeout: number;
  /** Matcher of the group ctx adds (tool events only). */
  matcher?: string;
}

/** The subcommands ctx ever registers as hooks. */
export type CtxSub = "statusline" | "monitor" | "track" | "resume --hook";

/** Every subcommand ctx may have registered (what uninstall recognises). */
const CTX_SUBS: readonly CtxSub[] = ["statusline", "monitor", "track", "resume --hook"];

/** Timeouts in seconds: hooks take milliseconds, these only bound a stuck disk. */
const SECONDS: Record<Exclude<CtxSub, "statusline">, number> = { monitor: 10, track: 30, "resume --hook": 30 };

/** The hooks ctx registers for `agent`, in order. */
export function ctxHooks(agent: Agent): CtxHookSpec[] {
  const unit = agent === "claude" ? 1 : 1000;
  const h = (event: string, sub: Exclude<CtxSub, "statusline">, matcher?: string): CtxHookSpec => ({
    event,
    sub,
    timeout: SECONDS[sub] * unit,
    ...(matcher !== undefined ? { matcher } : {}),
  });
  if (agent === "gemini") {
    // Gemini matchers are regular expressions over its tool names (run_shell_command, write_file, …).
    return [
      h("AfterTool", "monitor", ".*"),
      h("AfterTool", "track", ".*"),
      h("SessionStart", "track"),
      h("SessionStart", "resume --hook"),
      h("BeforeAgent", "track"),
      h("AfterAgent", "track"),
      h("PreCompress", "track"),
      h("SessionEnd", "track"),
    ];
  }
  return [
    h("PostToolUse", "monitor", "*"),
    h("PostToolUse", "track", "*"),
    // A failing tool call (a Bash exit code other than 0) fires only PostToolUseFailure: CRITICAL crossed there
    // must reach the agent and start the handoff as well (both pinned clients honour additionalContext there).
    h("PostToolUseFailure", "monitor", "*"),
    h("PostToolUseFailure", "track", "*"),
    h("SessionStart", "track"),
    h("SessionStart", "resume --hook"),
    h("UserPromptSubmit", "track"),
    h("Stop", "track"),
    h("PreCompact", "track"),
    h("SessionEnd", "track"),
  ];
}

/** The shell command running `sub` with the binary at `binary` (quoted when needed). */
export function ctxCommand(binary: string, sub: CtxSub): string {
  return `${shellQuote(binary)} ${sub}`;
}

/** A ctx hook command taken apart. */
export interface ParsedCtxCommand {
  /** The binary path as written (unquoted). */
  binary: string;
  /** The subcommand. */
  sub: CtxSub;
}

/**
 * Recognises a command ctx wrote: a program named `ctx` (or `ctx.exe`),
 * possibly quoted, followed by exactly one of ctx's hook subcommands.
 */
export function parseCtxCommand(command: unknown): ParsedCtxCommand | undefined {
  if (typeof command !== "string") return undefined;
  const split = firstWord(command.trim());
  if (!split) return undefined;
  const name = split.word.split(/[\\/]/).pop();
  if (name !== "ctx" && name !== "ctx.exe") return undefined;
  const rest = split.rest.trim().replace(/\s+/g, " ");
  const sub = CTX_SUBS.find((s) => s === rest);
  return sub ? { binary: split.word, sub } : undefined;
}

// --- internal ---

/** Splits off the first shell word, handling '…' and "…" quoting. */
function firstWord(text: string): { word: string; rest: string } | undefined {
  const single = /^'((?:[^']|'\\'')*)'(?=\s|$)/.exec(text);
  if (single) return { word: single[1]!.replace(/'\\''/g, "'"), rest: text.slice(single[0].length) };
  const double = /^"((?:[^"\\]|\\.)*)"(?=\s|$)/.exec(text);
  if (double) return { word: double[1]!.replace(/\\(.)/g, "$1"), rest: text.slice(double[0].length) };
  const plain = /^\S+/.exec(text);
  return plain ? { word: plain[0], rest: text.slice(plain[0].length) } : undefined;
}
