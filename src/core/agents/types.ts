/**
 * What ctx needs to know about one coding-agent client, as one adapter per client
 * (claude.ts, gemini.ts, codex.ts; the list is index.ts). Pure data and small pure functions.
 */

/** The clients ctx supports. */
export type AgentName = "claude" | "gemini" | "codex";

/** ctx's normalised hook events (Claude Code's names): what commands and core work on. */
export type NormalEvent =
  | "SessionStart"
  | "UserPromptSubmit"
  | "PostToolUse"
  | "PostToolUseFailure"
  | "Stop"
  | "StopFailure"
  | "PreCompact"
  | "PostCompact"
  | "PreCompress"
  | "SessionEnd";

/** The ctx subcommands a client's hooks run. */
export type HookSub = "monitor" | "track" | "resume --hook";

/** One hook entry `ctx install` writes, in the client's own event name. */
export interface HookEntry {
  /** The client's event name, e.g. `PostToolUse` or `AfterTool`. */
  event: string;
  /** The ctx subcommand it runs. */
  sub: HookSub;
  /** The matcher of the group (tool events only). */
  matcher?: string;
  /** The timeout in the client's unit when not ctx's usual one for `sub` (a client's own cap). */
  timeout?: number;
  /** More keys of the hook entry (Codex CLI: `additionalContextLimit`). */
  extra?: Readonly<Record<string, unknown>>;
}

/** Where a client keeps the file ctx adds its hooks to. */
export interface SettingsPlace {
  /** The folder under HOME (or under the project with `--project`). */
  dir: string;
  /** The file in it. */
  file: string;
  /** An environment variable that, when absolute, replaces `~/<dir>` for the user's file. */
  homeEnv?: string;
}

/** Text the supervisor reads in the client's tmux pane. */
export interface PaneMarkers {
  /** The client is working. */
  busy: RegExp;
  /** The empty input prompt. */
  idle: RegExp;
  /** The client's own context figure, `N` in group 1, when it shows one. */
  context?: RegExp;
}

/** One client, everything ctx must know about it. */
export interface AgentAdapter {
  /** The adapter's name, as `--<name>` on the set-up commands (claude has no flag). */
  name: AgentName;
  /** The client's product name, for messages. */
  label: string;
  /** The settings (or hooks) file ctx installs into. */
  settings: SettingsPlace;
  /** True when the client runs a status-line command (`statusLine` in its settings): ctx's goes there. */
  statusLine: boolean;
  /** A settings file beside the project's own that applies too (Claude Code's `settings.local.json`). */
  localSettings?: string;
  /** The unit of a hook's `timeout` key: 1 for seconds, 1000 for milliseconds. */
  timeoutUnit: 1 | 1000;
  /** The hooks `ctx install` registers, in order. */
  hooks: readonly HookEntry[];
  /** Each client event ctx reads and the normalised event it means. */
  events: Readonly<Record<string, NormalEvent>>;
  /** The payload of a normalised event with Claude Code's field names (the input is not changed). */
  fields(event: NormalEvent, input: Record<string, unknown>): Record<string, unknown>;
  /** True when a hook payload comes from this client (only the payload: never the parent process). */
  claimsHook(input: Record<string, unknown>): boolean;
  /** True when a parsed transcript line is this client's (the decoder to use). */
  claimsLine(entry: Record<string, unknown>): boolean;
  /** The window of a model this client runs, when the client's models have one known size. */
  windowOf(model: string | undefined): number | undefined;
  /** The used % as the client's own UI shows it, when it differs from round(used / window × 100). */
  usedPct?(usedTokens: number, windowSize: number): number;
  /**
   * True when a SessionStart with source `startup` is a new thread of the same work (a new
   * `codex exec`): the resume hook injects the chain's summary as after `/clear`, not a hint.
   */
  startupContinues?: boolean;
  /** The client's tmux pane. */
  pane: PaneMarkers;
}
