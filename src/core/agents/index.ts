/**
 * The adapters (one file per client) and the edge where a hook payload or a transcript line
 * is given to one: `normalizeHook` parses a payload once into ctx's typed event, `lineAgent`
 * says whose decoder reads a transcript line. Adding a client is one adapter file listed here.
 */
import { claude } from "./claude.ts";
import { codex } from "./codex.ts";
import { gemini } from "./gemini.ts";
import type { AgentAdapter, AgentName, NormalEvent } from "./types.ts";

export type { AgentAdapter, AgentName, HookEntry, HookSub, NormalEvent } from "./types.ts";

/** Every adapter; claims are tried in this order and Claude Code, the fallback, comes last. */
export const AGENTS: readonly AgentAdapter[] = [codex, gemini, claude];

/** The adapter of a client by name. */
export function agent(name: AgentName): AgentAdapter {
  return AGENTS.find((a) => a.name === name)!;
}

/** A hook payload, parsed once at the edge: its client, ctx's event, the payload in Claude Code's names. */
export interface NormalHook {
  /** The client that sent it (by the payload only). */
  agent: AgentName;
  /** The client's own event name (what a hook's output must echo as `hookEventName`). */
  rawEvent: string;
  /** ctx's normalised event, or undefined for an event ctx does not read. */
  event?: NormalEvent;
  /** The payload with the normalised event and Claude Code's field names. */
  input: Record<string, unknown>;
}

/** Normalises a hook payload; undefined when it names no event. */
export function normalizeHook(input: Record<string, unknown>): NormalHook | undefined {
  const rawEvent = input.hook_event_name;
  if (typeof rawEvent !== "string" || !rawEvent) return undefined;
  const a = agent(hookAgent(input));
  const event = a.events[rawEvent];
  return { agent: a.name, rawEvent, event, input: event ? a.fields(event, input) : input };
}

/** The client a hook payload comes from (by the payload only). */
export function hookAgent(input: Record<string, unknown>): AgentName {
  return AGENTS.find((a) => a.claimsHook(input))!.name;
}

/** The client whose transcript a parsed line belongs to (one detection for tail, tokens and summary). */
export function lineAgent(entry: Record<string, unknown>): AgentName {
  return AGENTS.find((a) => a.claimsLine(entry))!.name;
}

/** The adapters chosen by a flag (`--gemini`, `--codex`, …): every one but Claude Code, the default. */
const FLAGGED: readonly AgentAdapter[] = AGENTS.filter((a) => a.name !== "claude");

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
