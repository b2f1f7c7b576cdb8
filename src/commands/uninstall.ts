/**
 * `ctx uninstall [--project] [--gemini | --codex] [--dry-run]`: removes exactly ctx's
 * hooks and statusLine from the agent's settings.json, after a backup. A settings file ctx
 * created and that is left empty is removed (and its directory, when that is left empty).
 */
import type { Deps } from "../core/deps.ts";
import { removeFrom } from "../core/settings/merge.ts";
import { editSettings, parseTarget } from "./install.ts";
import { terminalSafe } from "../core/terminal.ts";
import { forgetStatusline, rememberedStatusline } from "../io/statusline-record.ts";
import { readHooksFile, untrustCtxHooks } from "../io/codex-trust.ts";
import { agent } from "../core/agents/index.ts";
import { pluginSetup } from "../io/plugin-file.ts";
import { uninstallPlugin } from "./install-plugin.ts";

/** Entry point. */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const { target } = parseTarget(argv, deps, false);
  const agentPlugin = agent(target.agent).plugin; // a client that takes a plugin file, not hook entries
  if (agentPlugin) return pluginSetup(deps, agentPlugin, { ...target, install: false, command: "" });
  const previous = rememberedStatusline(deps.env, target.path);
  // Codex's trust of ctx's hooks goes first, while the file still says which hooks were ctx's.
  if (target.agent === "codex" && !target.dryRun)
    for (const key of untrustCtxHooks(deps.env, target.path, readHooksFile(target.path)))
      deps.stdout(`untrusted ${key}\n`);
  let restored = false;
  const plugin = uninstallPlugin(target, deps);
  const code = editSettings(
    target,
    deps,
    (value) => {
      const out = removeFrom(value, previous);
      restored = out.restored !== undefined;
      const back = out.restored ? [`restored statusLine: ${terminalSafe(String(out.restored.command ?? ""))}`] : [];
      const settings = plugin ? plugin.edit(out.settings) : out.settings;
      const report = [...out.removed.map((l) => `removed ${terminalSafe(l)}`), ...back, ...(plugin?.report ?? [])];
      return { settings, report };
    },
    { dropIfCreated: true },
  );
  plugin?.files();
  if (restored && !target.dryRun) forgetStatusline(deps.env, target.path);
  return code;
}
