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
The percentage is Claude Code's own used_percentage (statusline.display: raw|usable|footer|both).
Respects NO_COLOR. Always exits 0.`,
    hook: true,
    load: () => import("./statusline.ts"),
  },
  monitor: {
    summary: "PostToolUse / AfterTool hook: warns the agent as the context fills up",
    usage: `Usage: ctx monitor

A PostToolUse (Claude Code) or AfterTool (Gemini CLI) hook. Reads the hook JSON
on stdin, takes usage from the bridge file when fresh or else from the
transcript, and injects CONTEXT WARNING (from levels.warning, 65% used) or
CONTEXT CRITICAL (from levels.critical, 75%; at levels.auto_pause, 90%, it says
auto_pause) as additionalContext, debounced (monitor.debounce_calls).
Always exits 0.`,
    hook: true,
    load: () => import("./monitor.ts"),
  },
  track: {
    summary: "Hook for every session event: per-session usage state, levels, auto-pause capture, token ledger",
    usage: `Usage: ctx track                                   (as a Claude Code hook, JSON on stdin)
       ctx track --session ID --usage '{"input_tokens":…}' [--model M]
       ctx track --session ID [--model M] < usage.json

As a hook for SessionStart, UserPromptSubmit, PostToolUse, PostToolUseFailure,
Stop, PreCompact and SessionEnd, keeps <project>/.ctx/state/sessions/<sid>.json
(usage, peak, per-model tokens, tool_calls, level, /clear chain), the copy
state/context-usage.json and the per-user index entry. The levels warning 65,
critical 75, auto_pause 90 (levels.*, used %) are reported once when crossed
as a systemMessage. From auto_pause on, actions go to
sessions/ACTIVE-PAUSE-<sid>.jsonl. PreCompact writes events/session-compressed-*.json;
SessionEnd (and PreCompact during a pause) start ctx finalize in the background.
The plain mode records one API response's usage for bots. Always exits 0.`,
    hook: true,
    load: () => import("./track.ts"),
  },
  finalize: {
    summary: "Writes the session record and the rule-based handoff summary; prints the summary path",
    usage: `Usage: ctx finalize [--session ID] [--transcript PATH] [--project DIR]

Streams the transcript and writes, under <project>/.ctx/sessions/:
summary-<task_id>-<stamp>.md (the handoff summary), session-<stamp>.json/.yaml/.md,
session-<stamp>-incremental.jsonl (the auto-pause action log) and LATEST-SESSION.txt.
Default session: the transcript's, else the latest tracked one. Idempotent:
a rerun for the same session rewrites the same files. Prints the summary path.`,
    hook: false,
    load: () => import("./finalize.ts"),
  },
  resume: {
    summary: "Start a fresh session from a handoff summary; --hook: SessionStart hook that injects it",
    usage: `Usage: ctx resume <summary.md> [-- <claude args>...]
       ctx resume --latest [-- <claude args>...]
       ctx resume --print <summary.md>|--latest
       ctx resume --dry-run <summary.md>|--latest [-- <claude args>...]
       ctx resume --hook

Starts claude (CTX_CLAUDE, else 'claude' on PATH) with a first prompt telling it
to read the previous session's summary and continue the remaining work, then
the summary. Arguments after '--' go to claude, e.g. -- -p --output-format json.
  --latest   the newest <root>/sessions/summary-*.md of the current project
  --print    print the prompt:  claude -p "$(ctx resume --print s.md)"
  --dry-run  show the command that would run
  --hook     SessionStart hook: after /clear or compaction, inject the newest
             summary no session has consumed yet (once); on startup, a summary a
             respawn cycle left pending, else a one-line hint. Always exits 0.
Exits with claude's exit code; 1 when the summary is missing, empty or unreadable.`,
    hook: false,
    load: () => import("./resume.ts"),
  },
  status: {
    summary: "Table of every session on this machine: usage, level, pause/respawn state",
    usage: `Usage: ctx status [--all] [--json] [--min PCT] [--project DIR] [--watch [--interval S]]

One row per session from the per-user index
(\${XDG_STATE_HOME:-~/.local/state}/ctx/sessions/*.json): project, session,
model, used % with a bar, tokens/window, level, pause/respawn state, last update.
  --all          also show stale sessions (not updated for status.stale_after_s,
                 or ended), greyed
  --json         machine-readable output
  --min PCT      only sessions at or above PCT % used
  --project DIR  only sessions of DIR (or below it)
  --watch        refresh in place until Ctrl-C (every status.watch_interval_s,
                 or --interval S)
Reads state without taking any lock. Respects NO_COLOR.`,
    hook: false,
    load: () => import("./status.ts"),
  },
  install: {
    summary: "Wires ctx into Claude Code (or Gemini CLI) settings: hooks and statusLine",
    usage: `Usage: ctx install [--project] [--gemini] [--dry-run] [--force-statusline]

Merges ctx's entries into ~/.claude/settings.json (<project>/.claude/settings.json
with --project; ~/.gemini/settings.json with --gemini), with this binary's
absolute path and a timeout on each:
  statusLine          ctx statusline (an existing other one is kept unless
                      --force-statusline)
  PostToolUse         ctx monitor, ctx track   (PostToolUseFailure: ctx track)
  SessionStart        ctx track, ctx resume --hook
  UserPromptSubmit, Stop, PreCompact, SessionEnd: ctx track
Gemini CLI: AfterTool, SessionStart, BeforeAgent, AfterAgent, PreCompress,
SessionEnd (timeouts in ms, matchers over Gemini tool names).
Writes <file>.bak-<UTC stamp> first, keeps every other key and hook, refuses a
file that is not valid JSON (says line:column). Running it twice adds nothing.
  --dry-run  print the result, write nothing`,
    hook: false,
    load: () => import("./install.ts"),
  },
  uninstall: {
    summary: "Removes exactly ctx's hooks and statusLine from the settings",
    usage: `Usage: ctx uninstall [--project] [--gemini] [--dry-run]

Removes every hook whose command is ctx's (statusline, monitor, track,
resume --hook) and ctx's statusLine, nothing else, after a timestamped backup.`,
    hook: false,
    load: () => import("./uninstall.ts"),
  },
  doctor: {
    summary: "Checks the wiring: binary on PATH, hooks and timeouts, bridge dir, tmux, hook errors",
    usage: `Usage: ctx doctor [--gemini]

Checks, and prints the fix for each problem:
  - ctx on PATH, and the same binary in the settings;
  - every ctx hook present (user and project settings), with its timeout;
  - the bridge directory (\${TMPDIR:-/tmp}) writable;
  - tmux available (ctx respawn);
  - the last hook errors recorded in \${XDG_STATE_HOME:-~/.local/state}/ctx/errors.log.
Exits 1 when a check fails.`,
    hook: false,
    load: () => import("./doctor.ts"),
  },
  respawn: {
    summary: "Supervises Claude Code in tmux: compacts or finalizes, clears and kickstarts near the context limit",
    usage: `Usage: ctx respawn start [--name NAME] [--daemon] [-- <claude args>]
       ctx respawn attach --target <tmux target> [--name NAME] [--daemon]
       ctx respawn stop [--name NAME]

start   creates tmux session NAME (default ctx-<project>) running claude
        (CTX_CLAUDE or PATH) and supervises it; attach supervises a pane
        already running Claude Code; stop ends supervision, the pane stays.
When the session is idle: at respawn.compact_at (85) % used it sends /compact;
at respawn.restart_at (90) % (compaction off, or it did not help) it runs
ctx finalize, sends /clear (ctx resume --hook injects the summary) and the
kickstart prompt. respawn.mode=keep-working cycles on every idle.
Brakes: respawn.max_cycles_per_hour, respawn.cooldown_s, stuck timeout,
no-progress breaker. Never types into a permission prompt, question or plan
menu. State: <root>/state/respawn/<name>.json (ctx status). See docs/respawn.md.`,
    hook: false,
    load: () => import("./respawn.ts"),
  },
};
