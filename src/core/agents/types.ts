/**
 * What ctx needs to know about one coding-agent client, as one adapter per client
 * (claude.ts, gemini.ts, codex.ts; the list is index.ts). Pure data and small pure functions,
 * among them the client's decoders: its hook payload into a {@link HookEvent}, its transcript
 * lines into {@link TranscriptEvent}s and the usage figures the readers take from them.
 */
import type { ModelTotals } from "../track/state.ts";
import type { AgentName } from "./index.ts";

export type { AgentName } from "./index.ts";

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

/** A hook payload after decoding by its client's adapter (`decodeHook`, index.ts). */
export interface HookEvent {
  /** The client that sent it (by the payload only). */
  agent: AgentName;
  /** The client's own event name (what a hook's output must echo as `hookEventName`). */
  rawEvent: string;
  /** ctx's normalised event, or undefined for an event ctx does not read. */
  event?: NormalEvent;
  /** The session id as sent, unchecked: it names a path only after `isValidSessionId`. */
  sessionId?: string;
  /** The transcript the payload names, when it names one. */
  transcriptPath?: string;
  /** The working directory the payload names. */
  cwd?: string;
  /** SessionStart's source as ctx reads it: a client whose new thread continues the work says `clear`. */
  source?: string;
  /** The text a hook waits for in the transcript before reading it (the tool call's line), when known. */
  waitNeedle?: string;
  /** The usage the payload itself carries (a client whose plugin knows it), read before any transcript. */
  usage?: PayloadUsage;
  /** The payload with the normalised event and Claude Code's field names (the rest of what ctx reads). */
  input: Record<string, unknown>;
}

/** The context usage a hook payload carries, with the window it is measured against. */
export interface PayloadUsage {
  /** Tokens in the context after the newest request. */
  usedTokens: number;
  /** The window, from the model's limits the client gave (never a guess). */
  windowSize: number;
  /** The model, when the payload names it. */
  model?: string;
}

/** A transcript kept in a database rather than a file: how to read one session's records from it. */
export interface TranscriptStore {
  /** The database file and the session key of a transcript path this store names, else undefined. */
  split(path: string): { file: string; key: string } | undefined;
  /** The SQL (one `?`: the session key) giving rows `(record)`: each a JSON object, in order. */
  query: string;
}

/** A client that loads a plugin file rather than hook entries: the file `ctx install` writes. */
export interface PluginShape {
  /** The user's plugin folder: below the environment variable's directory when set, else below HOME. */
  userDir: { env: string; sub: string; home: string };
  /** The project's plugin folder, below the project. */
  projectDir: string;
  /** The plugin file's name. */
  file: string;
  /** The text that marks the file as ctx's (uninstall and doctor remove or check only such a file). */
  marker: string;
  /** The plugin's text, running `command` (the ctx binary, or `ctx` on the PATH). */
  text(command: string): string;
}

/** A transcript line (or store row) after decoding: the client whose it is and the record itself. */
export interface TranscriptEvent {
  /** The client whose decoder claimed it. */
  agent: AgentName;
  /** The parsed record. */
  record: Record<string, unknown>;
}

/** What one transcript line says about the context: a whole reading, or a part of one (a Codex rollout). */
export interface UsageFacts {
  /** Tokens in the context after the line's request. */
  usedTokens?: number;
  /** The model of that request, when known. */
  model?: string;
  /** True when the line is a compaction boundary (usage is the post-compaction size). */
  compacted?: boolean;
  /** The client version the line records (Claude Code's `version`), when known. */
  clientVersion?: string;
  /** When the line was written (ms), when it says. */
  atMs?: number;
  /** The window the transcript itself records (Codex CLI's `model_context_window`), when it does. */
  windowSize?: number;
}

/** The billed tokens of one request a transcript line records (`ctx track`'s ledger). */
export interface LineUsage {
  /** The same for every line of one API message: callers dedupe on it. */
  key: string;
  /** The model billed. */
  model: string;
  /** The tokens of the request. */
  totals: ModelTotals;
}

/** A client's transcript decoders: the cheap scan of the hot path and the ledger's request tokens. */
export interface TranscriptDecoder {
  /** Texts one of which a line with usage holds: the hot path parses no other line. */
  needles: readonly string[];
  /** The usage facts of a line (sidechain lines only with `sidechain`). */
  usage(record: Record<string, unknown>, sidechain: boolean): UsageFacts | undefined;
  /** True once the facts gathered backwards are a whole reading (default: once a usage is found). */
  whole?(acc: UsageFacts): boolean;
  /** The request a line records, for the token ledger (`model`: the newest model the transcript named). */
  tokens(record: Record<string, unknown>, model: string | undefined): LineUsage | undefined;
}

/** One client, everything ctx must know about it. */
export interface AgentAdapter<N extends string = AgentName> {
  /** The adapter's name, as `--<name>` on the set-up commands (claude has no flag). */
  name: N;
  /** The client's product name, for messages. */
  label: string;
  /**
   * How a process of this client looks (process.ts, for `ctx trust`): its executable's name, the path its
   * script runs from, and the variables it sets in the shells it runs commands in (a first, cheap sign).
   */
  process: { name: RegExp; path: RegExp; env?: readonly string[] };
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
  /** The decoders of the client's transcript lines. */
  transcript: TranscriptDecoder;
  /** The text a tool hook waits for in the transcript: how the client's line names the call `id`. */
  toolNeedle(id: string): string;
  /** The usage a payload carries (in Claude Code's field names), for a client whose hooks know it. */
  hookUsage?(input: Record<string, unknown>): PayloadUsage | undefined;
  /** Where the client keeps its transcripts when they are database rows, not files. */
  store?: TranscriptStore;
  /** The plugin file ctx installs, for a client without hook entries. */
  plugin?: PluginShape;
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
