/**
 * `ctx uninstall [--project] [--gemini] [--dry-run]`: removes exactly ctx's
 * hooks and statusLine from the agent's settings.json, after a backup. A settings file ctx
 * created and that is left empty is removed (and its directory, when that is left empty).
 */
import type { Deps } from "../core/deps.ts";
import { removeFrom } from "../core/settings/merge.ts";
import { editSettings, parseTarget } from "./install.ts";

/** Entry point. */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const { target } = parseTarget(argv, deps, false);
  return editSettings(
    target,
    deps,
    (value) => {
      const { settings, removed } = removeFrom(value);
      return { settings, report: removed.map((l) => `removed ${l}`) };
    },
    { dropIfCreated: true },
  );
}
