/**
 * The Claude Code plugin part of `ctx install` and `ctx uninstall` (user level only: the client
 * reads `CLAUDE_CODE_PLUGIN_DIRS` from the user's settings, never a project's). The plugin's mod
 * runs on clients 2.1.286 and later; older ones ignore the env key and run the settings hooks.
 */
import { delimiter } from "node:path";
import type { Deps } from "../core/deps.ts";
import { userLayout } from "../core/layout.ts";
import { PLUGIN_DIRS_ENV, pluginFiles, withoutPluginDir, withPluginDir } from "../core/plugin/claude-plugin.ts";
import { carriedPlugin, removePlugin, writePlugin } from "../io/plugin/files.ts";
import type { SettingsTarget } from "./install.ts";

/** The plugin's step of one install or uninstall: its settings edit, its report lines, its files. */
export interface PluginStep {
  /** The settings with (install) or without (uninstall) the plugin's folder in `env`. */
  edit(settings: Record<string, unknown>): Record<string, unknown>;
  /** What the edit and the files do, for the report. */
  report: string[];
  /** Writes or removes the files (after the settings are written; not in a dry run). */
  files(): void;
}

/** The plugin's step of `ctx install` for `binary`, or undefined where there is none (another agent, `--project`). */
export function installPlugin(target: SettingsTarget, deps: Deps, binary: string): PluginStep | undefined {
  const dir = pluginDir(target, deps);
  if (!dir) return undefined;
  const files = pluginFiles(carriedPlugin(), binary);
  if (!files) throw new Error("this ctx binary carries no complete Claude Code plugin: rebuild it with build.ts");
  return {
    edit: (settings) => withPluginDir(settings, dir, delimiter),
    report: [
      `added   env.${PLUGIN_DIRS_ENV}: ${dir} (ctx's mod, for Claude Code 2.1.286 and later)`,
      `${target.dryRun ? "would write" : "wrote  "} ${dir}/ (${files.map((f) => f.path).join(", ")})`,
    ],
    files: () => {
      if (!target.dryRun) writePlugin(dir, files);
    },
  };
}

/** The plugin's step of `ctx uninstall`, or undefined where install wrote none. */
export function uninstallPlugin(target: SettingsTarget, deps: Deps): PluginStep | undefined {
  const dir = pluginDir(target, deps);
  if (!dir) return undefined;
  const report: string[] = [];
  return {
    edit: (settings) => {
      const out = withoutPluginDir(settings, dir, delimiter);
      if (out !== settings) report.push(`removed env.${PLUGIN_DIRS_ENV}: ${dir}`);
      return out;
    },
    report,
    files: () => {
      if (target.dryRun) return;
      if (removePlugin(dir)) deps.stdout(`removed ${dir}/ (ctx's Claude Code plugin)\n`);
    },
  };
}

// --- internal ---

function pluginDir(target: SettingsTarget, deps: Deps): string | undefined {
  if (target.agent !== "claude" || target.project) return undefined;
  const dir = userLayout(deps.env).claudePlugin;
  return dir === "" ? undefined : dir;
}
