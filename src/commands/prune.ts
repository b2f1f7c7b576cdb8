/**
 * `ctx prune [--project DIR] [--dry-run]`: applies the retention (docs/state.md, "Retention") to
 * one project's state and to the per-user state. A SessionStart starts it in the background at
 * most once per `retention.interval_h` (io/retention/start.ts); a person may run it any time.
 */
import { resolve } from "node:path";
import type { Config } from "../core/config-schema.ts";
import type { Deps } from "../core/deps.ts";
import { layout } from "../core/layout.ts";
import { stateRoot } from "../core/paths.ts";
import type { RetentionLimits } from "../core/retention.ts";
import { terminalSafe } from "../core/terminal.ts";
import { loadConfig, userConfig } from "../io/config.ts";
import { writeJsonAtomic } from "../io/fs/write.ts";
import { findProject, projectFrom } from "../io/project.ts";
import { pruneProject } from "../io/retention/prune.ts";
import { pruneUser, type PruneCounts } from "../io/retention/remove.ts";
import { parseFor } from "./args.ts";

/** Entry point. */
export async function run(argv: string[], deps: Deps): Promise<number> {
  const { values } = parseFor("prune", argv);
  const project =
    typeof values.project === "string"
      ? projectFrom(resolve(deps.cwd, values.project))
      : findProject(deps.env, deps.cwd);
  const dry = values["dry-run"] === true;
  const cfg = loadConfig(deps, project);
  const root = stateRoot(deps.env, project);
  const nowMs = deps.now();
  const limits = limitsOf(cfg);
  const counts = pruneProject(deps.env, root, limits, nowMs, dry);
  // Across projects only the user's own limits apply: a project file never prunes another project.
  pruneUser(deps.env, limitsOf(userConfig(deps.env)), nowMs, dry, counts, root);
  if (!dry) {
    try {
      writeJsonAtomic(layout(root).retention, {
        version: 1,
        started_at: new Date(nowMs).toISOString(),
        finished_at: new Date(deps.now()).toISOString(),
        removed: counts,
      });
    } catch {
      // a project without a writable .ctx/: the per-user part still ran
    }
  }
  deps.stdout(`${report(counts, dry, terminalSafe(root), cfg)}\n`);
  return 0;
}

/** The two limits of the configuration, in ms and summaries. */
export function limitsOf(cfg: Config): RetentionLimits {
  const days = cfg["retention.max_age_days"];
  return {
    maxAgeMs: days === false ? false : days * 86_400_000,
    keepPerChain: cfg["retention.keep_per_chain"],
  };
}

// --- internal ---

function report(c: PruneCounts, dry: boolean, root: string, cfg: Config): string {
  const age = cfg["retention.max_age_days"];
  const keep = cfg["retention.keep_per_chain"];
  const rule = `older than ${age === false ? "any age (off)" : `${age} days`}, over ${keep === false ? "no limit (off)" : keep} summaries per chain`;
  return [
    `${dry ? "would remove" : "removed"} (${rule}) in ${root} and the per-user state:`,
    `  ${c.sessions} session states, ${c.summaries} summaries, ${c.records} session record files,`,
    `  ${c.index} index entries, ${c.bridges} bridge files, ${c.files} other files`,
  ].join("\n");
}
