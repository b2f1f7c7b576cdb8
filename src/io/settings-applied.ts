/** The settings files that apply to a project, read as the client reads them (for `ctx doctor`). */
import { dirname, join } from "node:path";
import type { Env } from "../core/deps.ts";
import type { FoundSettings } from "../core/settings/diagnose.ts";
import type { Agent } from "../core/settings/entries.ts";
import { agent as agentAdapter } from "../core/agents/index.ts";
import { parseSettings } from "../core/settings/json-text.ts";
import { readSettingsText, settingsPath } from "./settings-file.ts";

/**
 * The agent's settings files that exist, lowest precedence first, as the client reads them in the
 * project (user, project, and Claude Code's `.claude/settings.local.json`), parsed or with their
 * parse error.
 */
export function readAppliedSettings(env: Env, agent: Agent, project: string): FoundSettings[] {
  const own = settingsPath(env, agent, project);
  const extra = agentAdapter(agent).localSettings;
  const local = extra ? [join(dirname(own), extra)] : [];
  const paths = [settingsPath(env, agent), own, ...local];
  const settings: FoundSettings[] = [];
  for (const path of [...new Set(paths)]) {
    try {
      const file = readSettingsText(path);
      if (!file.exists) continue;
      const parsed = parseSettings(file.text);
      settings.push({
        path,
        value: parsed.ok ? parsed.value : { error: `${parsed.line}:${parsed.column}: ${parsed.message}` },
      });
    } catch (err) {
      settings.push({ path, value: { error: ` ${(err as Error).message}` } });
    }
  }
  return settings;
}

/**
 * True when Claude Code's own "continue automatically at usage limit" (`autoContinueAtUsageLimit` in its
 * settings; 2.1.234+) is on in the files that apply to the project, the newest file's word winning.
 */
export function nativeAutoContinue(env: Env, project: string): boolean {
  let on = false;
  for (const f of readAppliedSettings(env, "claude", project)) {
    const v = (f.value as Record<string, unknown>).autoContinueAtUsageLimit;
    if (typeof v === "boolean") on = v;
  }
  return on;
}
