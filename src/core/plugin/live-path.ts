/**
 * Which of ctx's two paths into Claude Code is live, and why (`ctx doctor`): the mod (ctx's plugin,
 * clients 2.1.286 and later) or the settings hooks plus the status line. Pure.
 */
import { isObject } from "../json.ts";
import { MODS_SINCE } from "./claude-plugin.ts";

/** What decides the path. */
export interface PathFacts {
  /** The client's version (`claude --version`), when known. */
  clientVersion?: string;
  /** ctx's plugin folder is named in `env.CLAUDE_CODE_PLUGIN_DIRS` and holds the mod. */
  pluginInstalled: boolean;
  /** The managed settings (managed-settings.json), when there are any. */
  managed?: Record<string, unknown>;
  /** The user's own settings say `disableAllHooks`. */
  userDisablesHooks: boolean;
}

/** The live path: `mod`, `hooks` (settings hooks and status line), or `none` (policy turns both off). */
export interface LivePath {
  path: "mod" | "hooks" | "none";
  /** Why, in one line. */
  why: string;
}

/** The key of the built-in plugin whose option limits mods to the organization's. */
const SEC_PLUGIN = "cc-plugin-sec-default@builtin";

/** The live path for `facts`. */
export function livePath(facts: PathFacts): LivePath {
  const m = facts.managed ?? {};
  if (m.disableAllHooks === true)
    return { path: "none", why: "managed settings set disableAllHooks: neither ctx's hooks nor its mod run" };
  if (m.allowManagedHooksOnly === true)
    return {
      path: "none",
      why: "managed settings set allowManagedHooksOnly: only managed hooks and plugins run, not ctx's",
    };
  if (facts.userDisablesHooks)
    return { path: "none", why: "your settings set disableAllHooks: neither ctx's hooks nor its mod run" };
  if (managedModsOnly(m))
    return {
      path: "hooks",
      why: `managed settings limit mods to the organization's (pluginConfigs["${SEC_PLUGIN}"].options.allowManagedModsOnly): ctx's mod is not loaded`,
    };
  if (!facts.pluginInstalled) return { path: "hooks", why: "ctx's plugin is not installed" };
  const v = facts.clientVersion;
  if (v === undefined)
    return {
      path: "hooks",
      why: `the client's version is unknown (no claude on PATH): the mod runs on ${MODS_SINCE} and later`,
    };
  if (compareVersions(v, MODS_SINCE) < 0)
    return { path: "hooks", why: `Claude Code ${v} runs no mods (${MODS_SINCE} and later do)` };
  return { path: "mod", why: `Claude Code ${v} runs ctx's mod: warnings and the line from the client's own figures` };
}

/** The version in `claude --version`'s output (`2.1.332 (Claude Code)`), or undefined. */
export function parseClientVersion(text: string): string | undefined {
  return /\b(\d+\.\d+\.\d+)\b/.exec(text)?.[1];
}

/** Compares two dotted versions numerically: negative, zero or positive. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split(".").map(Number);
  const pb = b.split(".").map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

// --- internal ---

function managedModsOnly(m: Record<string, unknown>): boolean {
  const configs = m.pluginConfigs;
  const sec = isObject(configs) ? configs[SEC_PLUGIN] : undefined;
  const options = isObject(sec) ? sec.options : undefined;
  return isObject(options) && options.allowManagedModsOnly === true;
}
