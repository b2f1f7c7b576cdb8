/** What `ctx install` tells the user it changed, and the restart hint. */
import type { SettingsTarget } from "./install.ts";
import type { Deps } from "../core/deps.ts";
import { agent as agentAdapter } from "../core/agents/index.ts";
import { parseSettings } from "../core/settings/json-text.ts";
import { type InstallResult, removeFrom } from "../core/settings/merge.ts";
import { terminalSafe } from "../core/terminal.ts";
import { readSettingsText, settingsPath } from "../io/settings-file.ts";

/** What install says it added, updated or chained, and the restart hint. */
export function installReport(result: InstallResult, target: SettingsTarget): string[] {
  const lines = [...result.added.map((l) => `added   ${l}`), ...result.updated.map((l) => `updated ${l}`)];
  if (result.statusline === "added") lines.push("added   statusLine: ctx statusline");
  const other = terminalSafe(result.otherStatusline ?? "");
  if (result.statusline === "chained")
    lines.push(`chained statusLine: ctx statusline shows yours (${other}) beside ctx's; ctx uninstall puts yours back`);
  if (result.statusline === "kept-other")
    lines.push(`kept your statusLine (${other}) alone; run \`ctx install\` without --keep-statusline to show both`);
  if (result.statusline === "replaced") lines.push(`replaced statusLine (${other}); ctx uninstall puts it back`);
  if (!target.dryRun && (result.added.length > 0 || result.updated.length > 0)) {
    lines.push(
      target.agent === "claude"
        ? "Restart Claude Code (or open /hooks) to load the new hooks."
        : `Restart ${agentAdapter(target.agent).label} to load the new hooks.`,
    );
  }
  return lines;
}
