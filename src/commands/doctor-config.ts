/** `ctx doctor`'s configuration checks: both files, the environment, and the ladder of levels. */
import { ladderProblems } from "../core/config-check.ts";
import { envName } from "../core/config-schema.ts";
import type { Check } from "../core/settings/diagnose.ts";
import type { IgnoredKey } from "../core/config.ts";
import { problemLocation, readConfig, type ConfigFile } from "../io/config.ts";
import type { Env } from "../core/deps.ts";

/**
 * One check per config file (YAML errors with file:line:column, unknown keys with a
 * did-you-mean, wrong types, values out of range), one for the environment, one for the
 * ladder; deprecated keys are warnings that name the key to use.
 */
export function configChecks(env: Env, project: string): Check[] {
  const r = readConfig(env, project);
  const checks: Check[] = [];
  for (const f of r.files) {
    const name = `${f.origin} config`;
    if (f.text === undefined) {
      checks.push({ level: "ok", name, detail: `${f.path} (none; defaults apply)` });
      continue;
    }
    if (f.error) {
      checks.push({
        level: "fail",
        name,
        detail: `${f.error}; the whole file is ignored (hooks use the defaults)`,
        fix: "fix the YAML at that line",
      });
      continue;
    }
    const where = (key: string) => problemLocation(r.files, f.path, key);
    const found = problemChecks(name, f.path, r.problems, where);
    const trust = trustCheck(name, f, r.ignored, where);
    // a file whose keys are ignored is not called valid
    checks.push(
      ...(trust?.level === "warn" ? found.filter((c) => c.level !== "ok") : found),
      ...(trust ? [trust] : []),
    );
  }
  // A value a file set outside its safe range (config-bounds.ts): what ctx uses instead, and why.
  for (const c of r.clamped)
    checks.push({
      level: "warn",
      name: "config range",
      detail: `${problemLocation(r.files, r.origins[c.key].source, c.key)}: ${c.key}: ${c.from} is used as ${c.to} (${c.why})`,
      fix: `set ${c.key} within its range (docs/configuration.md)`,
    });
  const envProblems = problemChecks("environment", "environment", r.problems, (key) => envName(key));
  if (envProblems.some((c) => c.level !== "ok")) checks.push(...envProblems);
  const ladder = ladderProblems(r.config);
  checks.push(
    ladder.length === 0
      ? { level: "ok", name: "levels", detail: ladderText(r.config) }
      : {
          level: "fail",
          name: "levels",
          detail: ladder.join("; "),
          fix: "keep levels.warning < levels.critical < levels.auto_pause (see ctx config)",
        },
  );
  return checks;
}

// --- internal ---

/** For a project file that sets keys acting as the user: trusted (they apply), or not (ignored, and why). */
function trustCheck(
  name: string,
  f: ConfigFile,
  ignored: IgnoredKey[],
  where: (key: string) => string,
): Check | undefined {
  if (!f.trust) return undefined;
  const mine = ignored.filter((i) => i.source === f.path);
  if (mine.length === 0)
    return {
      level: "ok",
      name,
      detail: `trusted (sha256 ${f.trust.sha256.slice(0, 12)}…): its keys that act as you apply`,
    };
  return {
    level: "warn",
    name,
    detail: `${mine.length} key(s) that act as you ignored, the file is ${mine[0]!.reason}:${mine.map((i) => `\n        ${where(i.key)}: ${i.key}`).join("")}`,
    fix: `read ${f.path}, then run ctx trust in the project (ctx trust --revoke undoes it)`,
  };
}

function problemChecks(
  name: string,
  source: string,
  problems: ReturnType<typeof readConfig>["problems"],
  where: (key: string) => string,
): Check[] {
  const mine = problems.filter((p) => p.source === source);
  const errors = mine.filter((p) => !p.deprecated);
  const deprecated = mine.filter((p) => p.deprecated);
  const out: Check[] = [];
  if (errors.length)
    out.push({
      level: "fail",
      name,
      detail: `${errors.length} problem(s):${errors.map((p) => `\n        ${where(p.key)}: ${p.key}: ${p.message}`).join("")}`,
      fix: "correct or remove these keys (their defaults apply meanwhile); ctx config shows the effective values",
    });
  if (deprecated.length)
    out.push({
      level: "warn",
      name,
      detail: `${deprecated.length} deprecated key(s):${deprecated.map((p) => `\n        ${where(p.key)}: ${p.key}: ${p.message}`).join("")}`,
      fix: "replace each deprecated key by the new key and value shown (ctx converts them meanwhile)",
    });
  if (out.length === 0) out.push({ level: "ok", name, detail: `${source}: valid` });
  return out;
}

function ladderText(cfg: ReturnType<typeof readConfig>["config"]): string {
  const v = (x: number | false) => (x === false ? "off" : `${x}%`);
  return `warning ${v(cfg["levels.warning"])}, critical ${v(cfg["levels.critical"])}, auto_pause ${v(cfg["levels.auto_pause"])}`;
}
