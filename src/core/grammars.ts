/**
 * The command line of every ctx command: synopsis, description, options and positionals.
 * The parser (core/cli.ts) and `ctx <command> --help` both read these. Pure data.
 */
import type { Grammar } from "./cli.ts";
import { SETUP_GRAMMARS } from "./grammars-setup.ts";
import { RUN_GRAMMAR } from "./run/grammar.ts";

/** Each command's grammar, by command name. */
export const GRAMMARS = {
  statusline: {
    synopsis: ["[--chain COMMAND]"],
    about: `Reads Claude Code's statusLine JSON on stdin and prints one line:
model │ project (branch) │ 10-cell bar, used %, tokens/window, coloured by level
(green ok, yellow warning, red critical, red and 'paused' at auto_pause).
Writes \${TMPDIR:-/tmp}/claude-ctx-<session_id>.json for the hooks.
The percentage is Claude Code's own used_percentage (statusline.display: raw|usable|footer|both).
--chain COMMAND (or statusline.chain) also runs your own status line command with
the same payload and shows its first line beside ctx's (statusline.chain_position).
Respects NO_COLOR. Always exits 0.`,
    options: {
      chain: { type: "string", arg: "COMMAND", doc: "your own status line command, shown beside ctx's" },
    },
  },
  monitor: {
    synopsis: [""],
    about: `A PostToolUse (Claude Code, Codex CLI) or AfterTool (Gemini CLI) hook. Reads
the hook JSON on stdin, takes usage from the bridge file when fresh or else
from the transcript, and injects CONTEXT WARNING (from levels.warning, 65% used) or
CONTEXT CRITICAL (from levels.critical, 75%; at levels.auto_pause, 90%, it says
auto_pause) as additionalContext, debounced (monitor.debounce_calls).
Always exits 0.`,
    options: {},
  },
  track: {
    synopsis: [
      "                                  (as a Claude Code hook, JSON on stdin)",
      `--session ID --usage '{"input_tokens":…}' [--model M]`,
      "--session ID [--model M] < usage.json",
    ],
    about: `As a hook for SessionStart, UserPromptSubmit, PostToolUse, PostToolUseFailure,
Stop, StopFailure (the usage limit: limit, resets_at), PreCompact and SessionEnd,
keeps <project>/.ctx/state/sessions/<sid>.json (usage, peak, per-model tokens,
tool_calls, level, /clear chain), the copy state/context-usage.json and the per-user index entry. The levels warning 65,
critical 75, auto_pause 90 (levels.*, used %) are reported once when crossed
as a systemMessage. From auto_pause on, actions go to
sessions/ACTIVE-PAUSE-<sid>.jsonl. PreCompact writes events/session-compressed-*.json;
SessionEnd (and PreCompact during a pause) start ctx finalize in the background.
The hook mode always exits 0; the scripted mode (--session, for bots that call
the API directly) exits 2 on bad arguments.`,
    options: {
      session: { type: "string", arg: "ID", doc: "scripted mode: the session to record usage for" },
      usage: { type: "string", arg: "JSON", doc: "one API response's usage (else read from stdin)" },
      model: { type: "string", arg: "M", doc: "the model of that response" },
    },
  },
  finalize: {
    synopsis: ["[--session ID] [--transcript PATH] [--project DIR]"],
    about: `Streams the transcript and writes, under <project>/.ctx/sessions/:
summary-<task_id>-<stamp>.md (the handoff summary), session-<stamp>.json/.yaml/.md,
session-<stamp>-incremental.jsonl (the auto-pause action log) and LATEST-SESSION.txt.
Default session: the transcript's, else the latest tracked one. The project is
found from any subfolder (nearest .ctx/, else the git root). Idempotent:
a rerun for the same session rewrites the same files. Prints the summary path.`,
    options: {
      session: { type: "string", arg: "ID", doc: "the session (default: the transcript's, else the latest)" },
      transcript: { type: "string", arg: "PATH", doc: "the session's transcript" },
      project: { type: "string", arg: "DIR", doc: "the project (default: found from the current directory)" },
      ended: { type: "boolean", doc: "the session has ended: archive its auto-pause log" },
      reason: { type: "string", arg: "WHY", doc: "what started it, for the record" },
      "used-tokens": { type: "string", arg: "N", doc: "the reading that started it (at CRITICAL): tokens used" },
      "used-pct": { type: "string", arg: "PCT", doc: "that reading's used %" },
      "window-size": { type: "string", arg: "N", doc: "that reading's context window" },
    },
  },
  resume: {
    synopsis: [
      "<summary.md> [-- <claude args>...]",
      "--latest [-- <claude args>...]",
      "--print <summary.md>|--latest",
      "--dry-run <summary.md>|--latest [-- <claude args>...]",
      "--hook",
    ],
    about: `Starts claude (CTX_CLAUDE, else 'claude' on PATH) with a first prompt telling it
to read the previous session's summary and continue the remaining work, then
the summary. Arguments after '--' go to claude, e.g. -- -p --output-format json.
The project is found from any subfolder (nearest .ctx/, else the git root).
Exits with claude's exit code; 1 when the summary is missing, empty or unreadable.`,
    options: {
      latest: { type: "boolean", doc: "the newest <root>/sessions/summary-*.md of the current project" },
      print: { type: "boolean", doc: `print the prompt:  claude -p "$(ctx resume --print s.md)"` },
      "dry-run": { type: "boolean", doc: "show the command that would run" },
      hook: {
        type: "boolean",
        doc: "SessionStart hook: after /clear or compaction, inject the newest summary of the session's chain no session has consumed yet (once); on startup, a pending one or a hint; always exits 0",
      },
    },
    positionals: 1,
    passthrough: true,
  },
  status: {
    synopsis: ["[--all] [--json] [--min PCT] [--project DIR] [--watch [--interval S]]"],
    about: `One row per session from the per-user index
(\${XDG_STATE_HOME:-~/.local/state}/ctx/sessions/*.json): project, session,
model, used % with a bar, tokens/window, level (ok, warning, critical,
auto_pause), pause/respawn/ended state, last update. Reads state without
taking any lock. Respects NO_COLOR.`,
    options: {
      all: { type: "boolean", short: "a", doc: "also show stale sessions (status.stale_after_s), greyed" },
      json: { type: "boolean", doc: "machine-readable output" },
      min: { type: "string", arg: "PCT", doc: "only sessions at or above PCT % used" },
      project: { type: "string", arg: "DIR", doc: "only sessions of DIR's project (found from a subfolder too)" },
      watch: { type: "boolean", short: "w", doc: "refresh in place until Ctrl-C (status.watch_interval_s)" },
      interval: { type: "string", arg: "S", doc: "seconds between refreshes with --watch" },
    },
  },
  config: {
    synopsis: ["[--json]", "--budget SIZE"],
    about: `Every configuration key with its effective value and its origin, lowest first:
default, the user file (\${XDG_CONFIG_HOME:-~/.config}/ctx/config.yaml), the
project file (<project>/.ctx/config.yaml, the project found from any
subfolder) and the environment (CTX_*), like git config --show-origin. Values
read from a deprecated key name it. Problems are listed on stderr (ctx doctor
checks them and exits 1), and so are the project file's keys that act as you
while the file is not trusted (ctx trust): those are ignored. --budget SIZE
sets context.budget (200k, 1M, off) in the user file, keeping its other lines.`,
    options: {
      json: { type: "boolean", doc: "machine-readable output" },
      budget: { type: "string", arg: "SIZE", doc: "set context.budget (200k, off) in the user config file" },
    },
  },
  ...SETUP_GRAMMARS,
  metrics: {
    synopsis: ["[--textfile DIR]"],
    about: `Prints every live session of this machine (not ended, not stale) in the
Prometheus text format: ctx_context_used_ratio, ctx_context_used_tokens,
ctx_context_window_tokens, ctx_context_level, ctx_usage_limit_reset_timestamp_seconds,
ctx_summary_age_seconds, ctx_warnings_sent_total, ctx_respawn_cycles_total, labelled
agent, project (its name only), session (its label) and host. No prompt text, no
paths. --textfile writes DIR/ctx.prom atomically for node_exporter's textfile
collector; with metrics.textfile_dir set, the hooks refresh it in the background
at most once a minute. See docs/metrics.md.`,
    options: {
      textfile: { type: "string", arg: "DIR", doc: "write DIR/ctx.prom (node_exporter's textfile directory)" },
    },
  },
  prune: {
    synopsis: ["[--project DIR] [--dry-run]"],
    about: `Applies the retention (retention.max_age_days, default 30; retention.keep_per_chain,
default 5) to the project's .ctx/ and the per-user state: session states and the
files named after them, summaries with their twins and session records, events,
stopped supervisors' records, stale locks, index entries and bridge files.
Never a live session's state, never the newest summary of a chain still open.
A SessionStart runs it in the background at most once per retention.interval_h
(24) hours. The project is found from any subfolder (nearest .ctx/, else the git root).`,
    options: {
      project: { type: "string", arg: "DIR", doc: "the project (default: found from the current directory)" },
      "dry-run": { type: "boolean", doc: "count what would be removed, remove nothing" },
    },
  },
  respawn: {
    synopsis: [
      "start [--name NAME] [--daemon] [-- <claude args>]",
      "attach --target <tmux target> [--name NAME] [--daemon]",
      "stop [--name NAME]",
    ],
    about: `start   creates tmux session NAME (default ctx-<project>) running claude
      (CTX_CLAUDE or PATH) and supervises it; attach supervises a pane
      already running Claude Code; stop ends supervision, the pane stays.
When the session is idle: at respawn.compact_at (85) % used it sends /compact;
at respawn.restart_at (90) % (compaction off, or it did not help) it runs
ctx finalize, sends /clear (ctx resume --hook injects the summary) and the
kickstart prompt. respawn.mode=keep-working cycles on every idle.
Brakes: respawn.max_cycles_per_hour, respawn.cooldown_s, stuck timeout,
no-progress breaker. Never types into a permission prompt, question or plan
menu. State: <root>/state/respawn/<name>.json (ctx status). See docs/respawn.md.`,
    options: {
      name: { type: "string", arg: "NAME", doc: "the supervisor's name (default ctx-<project>)" },
      target: { type: "string", arg: "TARGET", doc: "attach: the tmux pane running Claude Code" },
      daemon: { type: "boolean", doc: "run the supervisor in the background" },
    },
    positionals: 1,
    passthrough: true,
  },
  run: RUN_GRAMMAR,
} satisfies Record<string, Grammar>;
