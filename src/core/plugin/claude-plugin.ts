/**
 * ctx's Claude Code plugin as `ctx install` writes it: its files (carried inside the binary, from
 * the repository's plugin/ folder), the mod's one line naming the binary, and the settings `env`
 * entry `CLAUDE_CODE_PLUGIN_DIRS` that loads it. Pure.
 */
import { isObject } from "../json.ts";

/** One file of the plugin: its path in the plugin folder and its text. */
export interface PluginFile {
  path: string;
  text: string;
}

/** The plugin's files, as the repository's plugin/ folder holds them (what the binary carries). */
export const PLUGIN_PATHS = [".claude-plugin/plugin.json", "hooks/hooks.json", "hooks/register.ts"] as const;

/** What the client writes inside a plugin folder it loads (its declarations): removed with the plugin. */
export const CLIENT_WRITTEN = ".claude-plugin/types";

/** The tsconfig.json the client writes beside a mod it loads, recognised by what it extends. */
export function isClientTsconfig(text: string): boolean {
  return text.includes('"./.claude-plugin/types/tsconfig.json"') && text.length < 400;
}

/** The settings `env` key that names plugin folders to load (user settings only; clients 2.1.286+ know it). */
export const PLUGIN_DIRS_ENV = "CLAUDE_CODE_PLUGIN_DIRS";

/** The first client version that runs mods (the docs say 2.1.287; 2.1.286 ran them by default). */
export const MODS_SINCE = "2.1.286";

/** register.ts's line naming the binary, as the repository holds it. */
const BIN_LINE = 'const CTX_BIN = "ctx";';

/**
 * The files to write for `binary`, from the carried copy `carried` (path → text): the mod names
 * the binary by its absolute path. Undefined when the copy lacks a file or the mod its line.
 */
export function pluginFiles(carried: Readonly<Record<string, string>>, binary: string): PluginFile[] | undefined {
  const files: PluginFile[] = [];
  for (const path of PLUGIN_PATHS) {
    const text = carried[path];
    if (text === undefined) return undefined;
    if (path !== "hooks/register.ts") files.push({ path, text });
    else if (!text.includes(BIN_LINE)) return undefined;
    else files.push({ path, text: text.replace(BIN_LINE, `const CTX_BIN = ${JSON.stringify(binary)};`) });
  }
  return files;
}

/** The folders `settings.env.CLAUDE_CODE_PLUGIN_DIRS` names (split on `sep`, the platform's path-list separator). */
export function pluginDirs(settings: Record<string, unknown>, sep: string): string[] {
  const env = settings.env;
  const v = isObject(env) ? env[PLUGIN_DIRS_ENV] : undefined;
  return typeof v === "string" ? v.split(sep).filter((d) => d.trim() !== "") : [];
}

/** `settings` with `dir` in `env.CLAUDE_CODE_PLUGIN_DIRS` (after the user's own); unchanged when it is there. */
export function withPluginDir(settings: Record<string, unknown>, dir: string, sep: string): Record<string, unknown> {
  const dirs = pluginDirs(settings, sep);
  if (dirs.includes(dir)) return settings;
  const env = isObject(settings.env) ? settings.env : {};
  return { ...settings, env: { ...env, [PLUGIN_DIRS_ENV]: [...dirs, dir].join(sep) } };
}

/**
 * `settings` without `dir` in `env.CLAUDE_CODE_PLUGIN_DIRS`: the key goes when no folder is left,
 * and `env` when nothing is left in it. Unchanged when `dir` is not there.
 */
export function withoutPluginDir(settings: Record<string, unknown>, dir: string, sep: string): Record<string, unknown> {
  const dirs = pluginDirs(settings, sep);
  if (!dirs.includes(dir) || !isObject(settings.env)) return settings;
  const rest = dirs.filter((d) => d !== dir);
  const { [PLUGIN_DIRS_ENV]: _, ...others } = settings.env;
  const env = rest.length > 0 ? { ...others, [PLUGIN_DIRS_ENV]: rest.join(sep) } : others;
  const { env: __, ...out } = settings;
  return Object.keys(env).length > 0 ? { ...out, env } : out;
}
