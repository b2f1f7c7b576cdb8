/**
 * The pure merge rules of `ctx install` / `ctx uninstall`: add or update
 * ctx's hook entries and statusLine in a parsed settings object, keeping
 * every other key and hook as it was, and remove exactly ctx's entries.
 */
import { type Agent, ctxCommand, ctxHooks, type CtxHookSpec, parseCtxCommand } from "./entries.ts";
import { isObject } from "../json.ts";

export { isObject };

/** What install did to the statusLine. */
export type StatuslineOutcome =
  /** Gemini CLI has no command status line. */
  | "none"
  /** There was none; ctx's was added. */
  | "added"
  /** ctx's was already there (its command was refreshed if needed). */
  | "ctx"
  /** Another statusLine was kept (use --force-statusline to replace it). */
  | "kept-other"
  /** Another statusLine was replaced because of --force-statusline. */
  | "replaced";

/** Options of {@link installInto}. */
export interface InstallOptions {
  /** Whose settings these are. */
  agent: Agent;
  /** Absolute path of the ctx binary written into every command. */
  binary: string;
  /** Replace a statusLine that is not ctx's. */
  forceStatusline: boolean;
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
  /** The other statusLine's command, when one was kept or replaced. */
  otherStatusline?: string;
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
  if (opts.agent === "claude") mergeStatusline(out, opts, result);
  return result;
}

/** The result of {@link removeFrom}. */
export interface RemoveResult {
  /** The new settings (the input is never mutated). */
  settings: Record<string, unknown>;
  /** `Event: command` lines that were removed (`statusLine: …` included). */
  removed: string[];
}

/** Removes every ctx hook and ctx's statusLine, and the containers that only held them. */
export function removeFrom(settings: Record<string, unknown>): RemoveResult {
  const out = structuredClone(settings);
  const removed: string[] = [];
  const status = out.statusLine as { command?: unknown } | undefined;
  if (isObject(status) && parseCtxCommand(status.command)?.sub === "statusline") {
    delete out.statusLine;
    removed.push(`statusLine: ${status.command}`);
  }
  const hooks = hooksObject(out, false);
  if (!hooks) return { settings: out, removed };
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
  return { settings: out, removed };
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
      };
      if (JSON.stringify(fresh) !== JSON.stringify(h)) result.updated.push(`${event}: ${fresh.command}`);
      return fresh;
    });
  }
  const missing = specs.filter((s) => !seen.has(s.sub));
  if (missing.length === 0) return;
  const matcher = missing[0]!.matcher;
  const entries = missing.map((s) => ({ type: "command", command: ctxCommand(binary, s.sub), timeout: s.timeout }));
  for (const e of entries) result.added.push(`${event}: ${e.command}`);
  groups.push({ ...(matcher !== undefined ? { matcher } : {}), hooks: entries });
  hooks[event] = groups;
}

function mergeStatusline(settings: Record<string, unknown>, opts: InstallOptions, result: InstallResult): void {
  const command = ctxCommand(opts.binary, "statusline");
  const current = settings.statusLine;
  if (current === undefined) {
    settings.statusLine = { type: "command", command, padding: 0 };
    result.statusline = "added";
    return;
  }
  const currentCommand = isObject(current) ? current.command : undefined;
  if (isObject(current) && parseCtxCommand(currentCommand)?.sub === "statusline") {
    if (currentCommand !== command) result.updated.push(`statusLine: ${command}`);
    settings.statusLine = { ...current, type: "command", command };
    result.statusline = "ctx";
    return;
  }
  result.otherStatusline = typeof currentCommand === "string" ? currentCommand : JSON.stringify(current);
  if (!opts.forceStatusline) {
    result.statusline = "kept-other";
    return;
  }
  settings.statusLine = { type: "command", command, padding: 0 };
  result.statusline = "replaced";
}
