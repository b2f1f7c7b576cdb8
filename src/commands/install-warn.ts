/** The note `ctx install --project` prints when ctx is wired in the user's settings too. */
import type { Deps } from "../core/deps.ts";
import { removeFrom } from "../core/settings/merge.ts";
import { parseSettings } from "../core/settings/json-text.ts";
import { readSettingsText, settingsPath } from "../io/settings-file.ts";
import type { SettingsTarget } from "./install.ts";

/**
 * Says so when ctx is wired in the user's settings too: the project's portable `ctx …` commands
 * differ from the user's absolute ones, so the client would run each hook twice.
 */
export function warnBothLevels(target: SettingsTarget, deps: Deps): void {
  try {
    const user = readSettingsText(settingsPath(deps.env, target.agent));
    const parsed = user.exists ? parseSettings(user.text) : undefined;
    if (!parsed?.ok || !removeFrom(parsed.value).removed.some((r) => !r.startsWith("statusLine:"))) return;
    deps.stdout(
      `note: ctx is also wired in ${user.path}; with both, the client runs each hook twice. Keep one: \`ctx uninstall\` (user) or \`ctx uninstall --project\`.\n`,
    );
  } catch {
    // an unreadable user file: nothing to compare
  }
}
