/**
 * What `ctx doctor --codex` checks besides the hooks: that Codex CLI will run them (each ctx hook
 * trusted at its current hash: an edited one is "modified" and needs trust again; `codex exec`
 * skips untrusted hooks silently) and that the user can see the context figure (Codex has no
 * status-line command; its built-in `context-used` item is turned on with `/statusline`).
 */
import type { Deps } from "../core/deps.ts";
import type { Check, FoundSettings } from "../core/settings/diagnose.ts";
import { join } from "node:path";
import { codexConfigPath, codexContextItemOn, codexProjectTrusted, ctxHookTrust } from "../io/codex-trust.ts";

/** The trust and context-item checks for the hooks.json files that apply. */
export function codexSetup(deps: Deps, found: FoundSettings[], installCmd: string, project: string): Check[] {
  const config = codexConfigPath(deps.env) ?? "~/.codex/config.toml";
  const trust = found.flatMap((s) => ("error" in s.value ? [] : ctxHookTrust(deps.env, s.path, s.value)));
  const checks: Check[] = [];
  const modified = trust.filter((t) => t.state === "modified");
  const untrusted = trust.filter((t) => t.state === "untrusted");
  if (trust.length > 0 && modified.length + untrusted.length === 0)
    checks.push({ level: "ok", name: "Codex hook trust", detail: `${trust.length} ctx hooks trusted in ${config}` });
  if (modified.length > 0)
    checks.push({
      level: "fail",
      name: "Codex hook trust",
      detail: `modified, needs trust again: ${modified.map((t) => t.key).join(", ")} (Codex skips it until then)`,
      fix: `${installCmd} (trusts ctx's hooks at their current hash), or review them in Codex's /hooks`,
    });
  if (untrusted.length > 0)
    checks.push({
      level: "fail",
      name: "Codex hook trust",
      detail: `not trusted: ${untrusted.map((t) => t.key).join(", ")} (codex exec skips them silently)`,
      fix: `${installCmd}, or trust them in Codex's /hooks ("Trust all and continue")`,
    });
  // Codex reads a project's .codex/hooks.json only in a project it trusts.
  const own = join(project, ".codex", "hooks.json");
  if (found.some((s) => s.path === own) && !codexProjectTrusted(deps.env, project))
    checks.push({
      level: "fail",
      name: "Codex project trust",
      detail: `${project} is not a trusted project: Codex does not load its .codex/hooks.json`,
      fix: `trust it once in an interactive codex there, or add [projects."${project}"] trust_level = "trusted" to ${config}`,
    });
  checks.push(
    codexContextItemOn(deps.env)
      ? { level: "ok", name: "Codex context item", detail: "the status line shows Codex's context figure" }
      : {
          level: "warn",
          name: "Codex context item",
          detail: "Codex has no status-line command; its own context figure is off in the status line",
          fix: `in Codex type /statusline and pick context-used (saved as [tui] status_line in ${config}); ctx status shows Codex sessions too`,
        },
  );
  return checks;
}
