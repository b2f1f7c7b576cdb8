/**
 * The adapters (one file per client) and the edge where a hook payload or a transcript line
 * is given to one: `decodeHook` parses a payload once into ctx's typed {@link HookEvent},
 * `decodeLine` gives a transcript line to the client that claims it. Nothing is read as another
 * client's: a payload or line no adapter claims stays undecoded, and its caller reports it.
 * Adding a client is one adapter file listed here.
 */
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { gemini } from "./gemini.ts";
import { opencode } from "./opencode.ts";
import type { AgentAdapter, HookEvent, TranscriptEvent } from "./types.ts";

export type {
  AgentAdapter,
  HookEntry,
  HookEvent,
  HookSub,
  LineUsage,
  NormalEvent,
  PayloadUsage,
  PluginShape,
  TranscriptEvent,
  TranscriptStore,
  UsageFacts,
} from "./types.ts";

/** Every adapter; claims are tried in this order, Claude Code's (the widest) last. */
export const AGENTS = [codex, gemini, opencode, claude] as const;

/** The clients ctx supports: the names of the adapter list. */
export type AgentName = (typeof AGENTS)[number]["name"];

/** The adapter of a client by name. */
export function agent(name: AgentName): AgentAdapter {
  return AGENTS.find((a) => a.name === name)!;
}

/** The window a model has when its client's adapter knows it (`windowOf`), else undefined. */
export function modelWindow(model: string | undefined): number | undefined {
  for (const a of AGENTS) {
    const w = a.windowOf(model);
    if (w !== undefined) return w;
  }
  return undefined;
}

/** Decodes a hook payload; undefined when it names no event or no adapter claims it ({@link unclaimedHook}). */
export function decodeHook(input: Record<string, unknown>): HookEvent | undefined {
  const rawEvent = input.hook_event_name;
  if (typeof rawEvent !== "string" || !rawEvent) return undefined;
  const a: AgentAdapter | undefined = AGENTS.find((x) => x.claimsHook(input));
  if (!a) return undefined;
  const event = a.events[rawEvent];
  const fields = event ? a.fields(event, input) : input;
  const s = (k: string) => (typeof fields[k] === "string" ? (fields[k] as string) : undefined);
  const source = s("source");
  const id = fields.tool_use_id;
  const last = fields.last_assistant_message;
  return {
    agent: a.name,
    rawEvent,
    event,
    sessionId: s("session_id"),
    transcriptPath: s("transcript_path"),
    cwd: s("cwd"),
    source: source === "startup" && a.startupContinues ? "clear" : source,
    waitNeedle:
      typeof id === "string" && /^[A-Za-z0-9_-]{8,200}$/.test(id)
        ? a.toolNeedle(id)
        : // The Stop message as the transcript stores it: a JSON string; its first line is enough to recognise it.
          event === "Stop" && typeof last === "string" && last.trim().length >= 8
          ? JSON.stringify(last.trim().split("\n")[0]!.slice(0, 80)).slice(1, -1)
          : undefined,
    usage: a.hookUsage?.(fields),
    input: fields,
  };
}

/** What to report about a payload that names an event no adapter claims; undefined for any other payload. */
export function unclaimedHook(input: Record<string, unknown>): string | undefined {
  const name = input.hook_event_name;
  if (typeof name !== "string" || !name || AGENTS.some((a) => a.claimsHook(input))) return undefined;
  // The name is outside text: only its plain characters, capped.
  return `a hook payload no client claims (event "${name.slice(0, 40).replace(/[^A-Za-z0-9._-]/g, "?")}"): ignored`;
}

/** The transcript line's client and the line, or undefined when no adapter claims it. */
export function decodeLine(record: Record<string, unknown>): TranscriptEvent | undefined {
  const a = AGENTS.find((x) => x.claimsLine(record));
  return a ? { agent: a.name, record } : undefined;
}

/** The adapters chosen by a flag (`--gemini`, `--codex`, …): every one but Claude Code, the default. */
const FLAGGED: readonly AgentAdapter[] = AGENTS.filter((a) => a.name !== "claude");

/** The set-up commands' client flags for a synopsis: `--codex | --gemini | …`, one per flagged adapter. */
export function agentFlags(): string {
  return FLAGGED.map((a) => `--${a.name}`).join(" | ");
}

/** The `--<name>` boolean options of the set-up commands, one per flagged adapter. */
export function agentOptions(doc: (a: AgentAdapter) => string): Record<string, { type: "boolean"; doc: string }> {
  return Object.fromEntries(FLAGGED.map((a) => [a.name, { type: "boolean" as const, doc: doc(a) }]));
}

/** The client the set-up flags name (none: Claude Code), or the usage error when several are given. */
export function flaggedAgent(values: Record<string, unknown>): AgentName | { error: string } {
  const chosen = FLAGGED.filter((a) => values[a.name] === true);
  if (chosen.length > 1) return { error: `${chosen.map((a) => `--${a.name}`).join(" and ")} exclude each other` };
  return chosen[0]?.name ?? "claude";
}
