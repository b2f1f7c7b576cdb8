import type { Deps } from "../core/deps.ts";

/** One subcommand: its help text and a lazy loader of its module. */
export interface CommandSpec {
  /** One line for `ctx --help`. */
  summary: string;
  /** The usage block for `ctx <command> --help`. */
  usage: string;
  /** True for hooks: they always exit 0 and print nothing on failure. */
  hook: boolean;
  /** Loads the module holding `run(argv, deps)`. */
  load: () => Promise<{ run: (argv: string[], deps: Deps) => Promise<number | void> }>;
}

/** The command table: it drives dispatch and help. */
export const COMMANDS: Record<string, CommandSpec> = {
  statusline: {
    summary: "Claude Code statusLine command: prints the usage line and writes the bridge file",
    usage: `Usage: ctx statusline

Reads Claude Code's statusLine JSON on stdin and prints one line:
model │ project (branch) │ 10-cell bar, used %, tokens/window.
Writes \${TMPDIR:-/tmp}/claude-ctx-<session_id>.json for the hooks.
The percentage is Claude Code's own used_percentage (statusline.display: raw|usable|both).
Respects NO_COLOR. Always exits 0.`,
    hook: true,
    load: () => import("./statusline.ts"),
  },
  monitor: {
    summary: "PostToolUse / AfterTool hook: warns the agent as the context fills up",
    usage: `Usage: ctx monitor

A PostToolUse (Claude Code) or AfterTool (Gemini CLI) hook. Reads the hook JSON
on stdin, takes usage from the bridge file when fresh or else from the
transcript, and injects CONTEXT WARNING (<= 35% remaining) or CONTEXT CRITICAL
(<= 25% remaining) as additionalContext, debounced (monitor.debounce_calls).
Always exits 0.`,
    hook: true,
    load: () => import("./monitor.ts"),
  },
};
