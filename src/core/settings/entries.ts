/**
 * Which hooks ctx registers for each agent, and how a ctx hook command is
 * written and recognised (so install can update it and uninstall can remove
 * exactly ctx's entries).
 */
import { agent as agentAdapter, type AgentName } from "../agents/index.ts";
import { shellQuote } from "../shell.ts";

/** The agent whose settings file is edited. */
export type Agent = AgentName;

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
  /** More keys of the entry, from the agent's adapter. */
  extra?: Readonly<Record<string, unknown>>;
}

/** The subcommands ctx ever registers as hooks. */
export type CtxSub = "statusline" | "monitor" | "track" | "resume --hook";

/** Every subcommand ctx may have registered (what uninstall recognises). */
const CTX_SUBS: readonly CtxSub[] = ["statusline", "monitor", "track", "resume --hook"];

/**
 * The timeouts, in seconds, ctx registers its hooks with (the client kills a hook past it): hooks take
 * milliseconds, these only bound a stuck disk or a long queue. Each hook's own waits are derived from them.
 */
export const HOOK_TIMEOUT_S: Readonly<Record<Exclude<CtxSub, "statusline">, number>> = {
  monitor: 10,
  track: 30,
  "resume --hook": 30,
};

/** The hooks ctx registers for `agent`, in order (the adapter's entries, timeouts in its unit). */
export function ctxHooks(agent: Agent): CtxHookSpec[] {
  const a = agentAdapter(agent);
  return a.hooks.map((h) => ({
    event: h.event,
    sub: h.sub,
    timeout: h.timeout ?? HOOK_TIMEOUT_S[h.sub] * a.timeoutUnit,
    ...(h.matcher !== undefined ? { matcher: h.matcher } : {}),
    ...(h.extra ? { extra: h.extra } : {}),
  }));
}

/** The shell command running `sub` with the binary at `binary` (quoted when needed). */
export function ctxCommand(binary: string, sub: CtxSub): string {
  return `${shellQuote(binary)} ${sub}`;
}

/** ctx's status line command, running the user's own status line command `chain` too when given. */
export function statuslineCommand(binary: string, chain?: string): string {
  return `${ctxCommand(binary, "statusline")}${chain ? ` --chain ${shellQuote(chain)}` : ""}`;
}

/** A ctx hook command taken apart. */
export interface ParsedCtxCommand {
  /** The binary path as written (unquoted). */
  binary: string;
  /** The subcommand. */
  sub: CtxSub;
  /** The user's status line command a `statusline --chain CMD` runs too. */
  chain?: string;
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
  const chained = /^\s*statusline\s+--chain\s+/.exec(split.rest);
  if (chained) {
    const arg = firstWord(split.rest.slice(chained[0].length));
    return arg && arg.rest.trim() === "" && arg.word
      ? { binary: split.word, sub: "statusline", chain: arg.word }
      : undefined;
  }
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
