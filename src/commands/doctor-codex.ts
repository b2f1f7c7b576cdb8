/**
 * What `ctx doctor --codex` checks besides the hooks: that Codex CLI will run them (each ctx hook
 * trusted at its current hash: an edited one is "modified" and needs trust again; `codex exec`
 * skips untrusted hooks silently) and that the user can see the context figure (Codex has no
 * status-line command; its built-in `context-used` item is turned on with `/statusline`).
 */
import type { Deps } from "../core/deps.ts";
import type { Check, FoundSettings } from "../core/settings/diagnose.ts";
import { parseCtxCommand } from "../core/settings/entries.ts";
import { isAbsolute, join } from "node:path";
import type { ForeignHook } from "../core/agents/codex-trust.ts";
import { terminalSafe } from "../core/terminal.ts";
import { codexConfigPath, codexContextItemOn, codexProjectTrusted, hookTrust } from "../io/codex-trust.ts";

/** The trust and context-item checks for the hooks.json files that apply. */
export function codexSetup(deps: Deps, found: FoundSettings[], installCmd: string, project: string): Check[] {
  const config = codexConfigPath(deps.env) ?? "~/.codex/config.toml";
  const own = join(project, ".codex", "hooks.json");
  // a project's file holds `ctx <sub>` (install --project); the user's the absolute path of a ctx
  const sorted = found.map((s) =>
    "error" in s.value
      ? { own: [], foreign: [] }
      : hookTrust(deps.env, s.path, s.value, (b) => (s.path === own ? b === "ctx" : isAbsolute(b))),
  );
  const trust = sorted.flatMap((s) => s.own);
  // the user's own hooks in their own file are theirs; a project's (a cloned repository's) are listed
  const foreign = sorted.flatMap((s, i) =>
    s.foreign.filter((f) => found[i]!.path === own || parseCtxCommand(f.command) !== undefined),
  );
  const checks: Check[] = foreignChecks(foreign);
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

/** The lines `ctx install --codex` prints for the hooks it did not write and so did not trust. */
export function foreignReport(foreign: readonly ForeignHook[]): string[] {
  return foreign.map(
    (f) =>
      `not trusted (not ctx's): ${f.key}: ${shownCommand(f.command)}; review it in Codex's /hooks before trusting it\n`,
  );
}

// --- internal ---

/**
 * What doctor says of the hooks ctx did not write: a trusted one that looks like ctx's (a
 * repository's `./tools/ctx track`, trusted by an older ctx install) fails; the others are listed.
 */
function foreignChecks(foreign: readonly { key: string; state: string; command: string }[]): Check[] {
  if (foreign.length === 0) return [];
  const line = (f: { key: string; command: string }) => `${f.key} (${shownCommand(f.command)})`;
  const looksOurs = foreign.filter((f) => f.state !== "untrusted" && parseCtxCommand(f.command));
  const checks: Check[] = [
    {
      level: "warn",
      name: "Codex foreign hooks",
      detail: `not written by ctx, never trusted by ctx: ${foreign.map(line).join(", ")}`,
      fix: "review each in Codex's /hooks; ctx trusts only the hooks it wrote",
    },
  ];
  if (looksOurs.length > 0)
    checks.push({
      level: "fail",
      name: "Codex foreign hooks",
      detail: `trusted, and only looks like ctx's: ${looksOurs.map(line).join(", ")}`,
      fix: 'remove its [hooks.state."…"] table from config.toml unless you reviewed that script',
    });
  return checks;
}

/** A command as shown in one line: sanitised, capped. */
function shownCommand(command: string): string {
  const text = terminalSafe(command).replace(/\s+/g, " ");
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}
