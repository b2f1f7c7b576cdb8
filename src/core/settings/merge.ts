/**
 * The pure merge rules of `ctx install` / `ctx uninstall`: add or update
 * ctx's hook entries and statusLine in a parsed settings object, keeping
 * every other key and hook as it was, and remove exactly ctx's entries.
 */
import { type Agent, ctxCommand, ctxHooks, type CtxHookSpec, parseCtxCommand, statuslineCommand } from "./entries.ts";
import { agent as agentAdapter } from "../agents/index.ts";
import { isObject } from "../json.ts";

export { isObject };

/** What install did to the statusLine. */
export type StatuslineOutcome =
  /** Gemini CLI and Codex CLI have no command status line. */
  | "none"
  /** There was none; ctx's was added. */
  | "added"
  /** ctx's was already there (its command was refreshed if needed). */
  | "ctx"
  /** Another statusLine was kept and ctx's shows beside it: ctx runs it (`statusline --chain`). */
  | "chained"
  /** Another statusLine was kept alone (--keep-statusline). */
  | "kept-other"
  /** Another statusLine was replaced (--force-statusline); uninstall puts it back. */
  | "replaced";

/** What install does with a statusLine that is not ctx's. */
export type OtherStatusline = "chain" | "keep" | "replace";

/** Options of {@link installInto}. */
export interface InstallOptions {
  /** Whose settings these are. */
  agent: Agent;
  /** Absolute path of the ctx binary written into every command. */
  binary: string;
  /** What to do with a statusLine that is not ctx's (default: chain it). */
  otherStatusline?: OtherStatusline;
}

/** The result of {@link installInto}. */
export interface InstallResult {
  /** The new settings (the input is never mutated). */
  settings: Record<string, unknown>;
  /** `Event: command` lines that were added. */
  added: string[];
  /** `Event: command` lines whose command or timeout was refreshed. */
  updated: string[];
  /** What happened to the statusLine. */
  statusline: StatuslineOutcome;
  /** The other statusLine's command, when one was kept, chained or replaced. */
  otherStatusline?: string;
  /** The statusLine as it was before ctx's took its place (chained or replaced): uninstall restores it. */
  previousStatusline?: Record<string, unknown>;
}

/** A settings file whose shape ctx cannot merge into (thrown, never half-applied). */
export class SettingsShapeError extends Error {}

/** Adds ctx's hooks (and statusLine for Claude Code) to `settings`. Idempotent. */
export function installInto(settings: Record<string, unknown>, opts: InstallOptions): InstallResult {
  const out = structuredClone(settings);
  const hooks = hooksObject(out, true)!;
  const result: InstallResult = { settings: out, added: [], updated: [], statusline: "none" };
  const byEvent = new Map<string, CtxHookSpec[]>();
  for (const spec of ctxHooks(opts.agent)) byEvent.set(spec.event, [...(byEvent.get(spec.event) ?? []), spec]);
  for (const [event, specs] of byEvent) mergeEvent(hooks, event, specs, opts.binary, result);
  if (agentAdapter(opts.agent).statusLine) mergeStatusline(out, opts, result);
  return result;
}

/** The result of {@link removeFrom}. */
export interface RemoveResult {
  /** The new settings (the input is never mutated). */
  settings: Record<string, unknown>;
  /** `Event: command` lines that were removed (`statusLine: …` included). */
  removed: string[];
  /** The user's statusLine put back in place of ctx's, when there was one. */
  restored?: Record<string, unknown>;
}

/**
 * Removes every ctx hook and ctx's statusLine, and the containers that only held them. The
 * statusLine ctx's took the place of comes back: `previous` (what install recorded), else the
 * command a `statusline --chain` ran, with the entry's other keys.
 */
export function removeFrom(settings: Record<string, unknown>, previous?: unknown): RemoveResult {
  const out = structuredClone(settings);
  const removed: string[] = [];
  let restored: Record<string, unknown> | undefined;
  const status = out.statusLine as { command?: unknown } | undefined;
  const ours = isObject(status) ? parseCtxCommand(status.command) : undefined;
  if (isObject(status) && ours?.sub === "statusline") {
    delete out.statusLine;
    removed.push(`statusLine: ${status.command}`);
    const { command: _, ...rest } = status;
    restored = isObject(previous) ? previous : ours.chain ? { ...rest, command: ours.chain } : undefined;
    if (restored) out.statusLine = restored;
  }
  const hooks = hooksObject(out, false);
  if (!hooks) return { settings: out, removed, ...(restored ? { restored } : {}) };
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const before = removed.length;
    const kept = groups.flatMap((group) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return [group];
      const left = group.hooks.filter((h) => {
        const ours = isObject(h) && parseCtxCommand(h.command) !== undefined;
        if (ours) removed.push(`${event}: ${(h as { command: string }).command}`);
        return !ours;
      });
      if (left.length === group.hooks.length) return [group];
      return left.length === 0 ? [] : [{ ...group, hooks: left }];
    });
    if (removed.length === before) continue;
    if (kept.length === 0) delete hooks[event];
    else hooks[event] = kept;
  }
  if (Object.keys(hooks).length === 0 && removed.some((r) => !r.startsWith("statusLine:"))) delete out.hooks;
  return { settings: out, removed, ...(restored ? { restored } : {}) };
}

// --- internal ---

function hooksObject(settings: Record<string, unknown>, create: boolean): Record<string, unknown> | undefined {
  if (settings.hooks === undefined) {
    if (!create) return undefined;
    settings.hooks = {};
  }
  if (!isObject(settings.hooks)) throw new SettingsShapeError('"hooks" is not a JSON object');
  return settings.hooks;
}

/** Refreshes the first ctx hook of each wanted subcommand in place, then appends one group with the missing ones. */
function mergeEvent(
  hooks: Record<string, unknown>,
  event: string,
  specs: CtxHookSpec[],
  binary: string,
  result: InstallResult,
): void {
  const groups = hooks[event] ?? [];
  if (!Array.isArray(groups)) throw new SettingsShapeError(`"hooks.${event}" is not a JSON array`);
  const seen = new Set<string>();
  for (const group of groups) {
    if (!isObject(group) || !Array.isArray(group.hooks)) continue;
    group.hooks = group.hooks.map((h: unknown) => {
      const parsed = isObject(h) ? parseCtxCommand(h.command) : undefined;
      const spec = parsed && specs.find((s) => s.sub === parsed.sub);
      if (!spec || seen.has(spec.sub)) return h;
      seen.add(spec.sub);
      const fresh = {
        ...(h as Record<string, unknown>),
        type: "command",
        command: ctxCommand(binary, spec.sub),
        timeout: spec.timeout,
        ...spec.extra,
      };
      if (JSON.stringify(fresh) !== JSON.stringify(h)) result.updated.push(`${event}: ${fresh.command}`);
      return fresh;
    });
  }
  const missing = specs.filter((s) => !seen.has(s.sub));
  if (missing.length === 0) return;
  const matcher = missing[0]!.matcher;
  const entries = missing.map((s) => ({
    type: "command",
    command: ctxCommand(binary, s.sub),
    timeout: s.timeout,
    ...s.extra,
  }));
  for (const e of entries) result.added.push(`${event}: ${e.command}`);
  groups.push({ ...(matcher !== undefined ? { matcher } : {}), hooks: entries });
  hooks[event] = groups;
}

function mergeStatusline(settings: Record<string, unknown>, opts: InstallOptions, result: InstallResult): void {
  const current = settings.statusLine;
  if (current === undefined) {
    settings.statusLine = { type: "command", command: statuslineCommand(opts.binary), padding: 0 };
    result.statusline = "added";
    return;
  }
  const currentCommand = isObject(current) ? current.command : undefined;
  const ours = isObject(current) ? parseCtxCommand(currentCommand) : undefined;
  if (isObject(current) && ours?.sub === "statusline") {
    // ctx's already: refresh the binary, keep what it chains
    const command = statuslineCommand(opts.binary, ours.chain);
    if (currentCommand !== command) result.updated.push(`statusLine: ${command}`);
    settings.statusLine = { ...current, type: "command", command };
    result.statusline = "ctx";
    return;
  }
  result.otherStatusline = typeof currentCommand === "string" ? currentCommand : JSON.stringify(current);
  const mode = opts.otherStatusline ?? "chain";
  const chainable = isObject(current) && typeof currentCommand === "string" && currentCommand.trim() !== "";
  if (mode === "keep" || (mode === "chain" && !chainable)) {
    result.statusline = "kept-other";
    return;
  }
  if (isObject(current)) result.previousStatusline = structuredClone(current);
  if (mode === "chain") {
    settings.statusLine = {
      ...current,
      type: "command",
      command: statuslineCommand(opts.binary, currentCommand as string),
    };
    result.statusline = "chained";
    return;
  }
  settings.statusLine = { type: "command", command: statuslineCommand(opts.binary), padding: 0 };
  result.statusline = "replaced";
}
