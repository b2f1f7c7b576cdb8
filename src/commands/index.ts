import { AGENTS } from "../core/agents/index.ts";
import type { Grammar } from "../core/cli.ts";
import { GRAMMARS } from "../core/grammars.ts";
import type { Deps } from "../core/deps.ts";

/** One subcommand: its help text and a lazy loader of its module. */
export interface CommandSpec {
  /** One line for `ctx --help`. */
  summary: string;
  /** Its command line: the parser and `ctx <command> --help` both use it (core/cli.ts). */
  grammar: Grammar;
  /** True for hooks: they always exit 0 and print nothing on failure (errors go to errors.log). */
  hook: boolean;
  /** A flag that makes this call a hook (before any `--`), e.g. `resume --hook`: main treats it as `hook: true`. */
  hookFlag?: string;
  /** Loads the module holding `run(argv, deps)`. */
  load: () => Promise<{ run: (argv: string[], deps: Deps) => Promise<number | void> }>;
}

/** The command table: it drives dispatch, parsing and help. */
export const COMMANDS: Record<string, CommandSpec> = {
  install: {
    summary: `Wires ctx into ${clients()}: hooks and statusLine in its settings, or ctx's plugin`,
    grammar: GRAMMARS.install,
    hook: false,
    load: () => import("./install.ts"),
  },
  status: {
    summary: "Table of every session on this machine: usage, level, pause/respawn state",
    grammar: GRAMMARS.status,
    hook: false,
    load: () => import("./status.ts"),
  },
  resume: {
    summary: "Start a fresh session from a handoff summary; --hook: SessionStart hook that injects it",
    grammar: GRAMMARS.resume,
    hook: false,
    hookFlag: "--hook",
    load: () => import("./resume.ts"),
  },
  run: {
    summary: "Runs a prompt headless (claude -p) in legs across the context limit and usage limits, for CI",
    grammar: GRAMMARS.run,
    hook: false,
    load: () => import("./run.ts"),
  },
  respawn: {
    summary: "Supervises Claude Code in tmux: compacts or finalizes, clears and kickstarts near the context limit",
    grammar: GRAMMARS.respawn,
    hook: false,
    load: () => import("./respawn.ts"),
  },
  doctor: {
    summary: "Checks the wiring and the config: binary on PATH, hooks, config files, bridge dir, tmux, hook errors",
    grammar: GRAMMARS.doctor,
    hook: false,
    load: () => import("./doctor.ts"),
  },
  config: {
    summary: "Prints the effective configuration and where each value came from",
    grammar: GRAMMARS.config,
    hook: false,
    load: () => import("./config.ts"),
  },
  trust: {
    summary:
      "Trusts the project's .ctx/config.yaml: its keys that make ctx act as you (respawn prompts, auto-accept) apply",
    grammar: GRAMMARS.trust,
    hook: false,
    load: () => import("./trust.ts"),
  },
  uninstall: {
    summary: "Removes exactly ctx's hooks and statusLine from the settings",
    grammar: GRAMMARS.uninstall,
    hook: false,
    load: () => import("./uninstall.ts"),
  },
  finalize: {
    summary: "Writes the session record and the rule-based handoff summary; prints the summary path",
    grammar: GRAMMARS.finalize,
    hook: false,
    load: () => import("./finalize.ts"),
  },
  metrics: {
    summary: "Prometheus text format for every live session on this machine (--textfile for node_exporter)",
    grammar: GRAMMARS.metrics,
    hook: false,
    load: () => import("./metrics.ts"),
  },
  prune: {
    summary: "Applies the retention: removes old session state, summaries and records (a SessionStart runs it daily)",
    grammar: GRAMMARS.prune,
    hook: false,
    load: () => import("./prune.ts"),
  },
  statusline: {
    summary: "Claude Code statusLine command: prints the usage line and writes the bridge file",
    grammar: GRAMMARS.statusline,
    hook: true,
    load: () => import("./statusline.ts"),
  },
  monitor: {
    summary: "PostToolUse / AfterTool hook: warns the agent as the context fills up",
    grammar: GRAMMARS.monitor,
    hook: true,
    load: () => import("./monitor.ts"),
  },
  track: {
    summary: "Hook for every session event: per-session usage state, levels, auto-pause capture, token ledger",
    grammar: GRAMMARS.track,
    hook: true,
    load: () => import("./track.ts"),
  },
};

/** The agent clients' names, from the adapters: "A, B, C or D". */
function clients(): string {
  const labels = AGENTS.map((a) => a.label);
  return `${labels.slice(0, -1).join(", ")} or ${labels.at(-1)}`;
}
