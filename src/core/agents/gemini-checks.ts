/**
 * The doctor's Gemini CLI checks beyond the hooks: what Gemini CLI 0.61.0 needs
 * to run the hooks at all, and to run headless (`gemini -p`): an auth method
 * (else it exits 41), a trusted folder (else 55), hooks not turned off.
 * Pure: the settings and the environment are passed in.
 */
import type { Check } from "../settings/diagnose.ts";
import { isObject } from "../settings/merge.ts";
import type { Env } from "../deps.ts";

/** What the Gemini checks look at. */
export interface GeminiFacts {
  /** The parsed settings that apply, user first, then project (later ones win). */
  settings: Record<string, unknown>[];
  /** The environment the doctor runs in (the one `gemini` would get). */
  env: Env;
  /** The project directory, and whether `~/.gemini/trustedFolders.json` trusts it (or a parent). */
  project: string;
  trusted: boolean;
}

/** Checks the settings Gemini CLI needs for ctx's hooks and for headless use. */
export function geminiChecks(f: GeminiFacts): Check[] {
  return [hooksOn(f), auth(f), trust(f)];
}

// --- internal ---

/** The last value the settings give for `path` (project settings override user settings). */
function setting(settings: Record<string, unknown>[], path: string[]): unknown {
  let out: unknown;
  for (const s of settings) {
    let v: unknown = s;
    for (const key of path) v = isObject(v) ? v[key] : undefined;
    if (v !== undefined) out = v;
  }
  return out;
}

function hooksOn(f: GeminiFacts): Check {
  if (setting(f.settings, ["hooksConfig", "enabled"]) === false)
    return {
      level: "fail",
      name: "Gemini CLI hooks",
      detail: "turned off (hooksConfig.enabled is false): no ctx hook runs",
      fix: 'remove "hooksConfig": {"enabled": false} from the Gemini settings',
    };
  return { level: "ok", name: "Gemini CLI hooks", detail: "on (hooksConfig.enabled)" };
}

function auth(f: GeminiFacts): Check {
  const type = setting(f.settings, ["security", "auth", "selectedType"]);
  if (typeof type !== "string" || !type)
    return {
      level: "fail",
      name: "Gemini CLI auth",
      detail: "security.auth.selectedType is not set: headless `gemini -p` exits 41 (invalid auth method)",
      fix: 'sign in once in an interactive gemini, or set "security": {"auth": {"selectedType": "gemini-api-key"}}',
    };
  if (type === "gemini-api-key" && !f.env.GEMINI_API_KEY)
    return {
      level: "warn",
      name: "Gemini CLI auth",
      detail: `${type}, but GEMINI_API_KEY is not set here (fine if ~/.gemini/.env or the project's .env sets it)`,
      fix: "export GEMINI_API_KEY=… where gemini runs",
    };
  return { level: "ok", name: "Gemini CLI auth", detail: type };
}

function trust(f: GeminiFacts): Check {
  const name = "Gemini CLI folder trust";
  if (setting(f.settings, ["security", "folderTrust", "enabled"]) === false)
    return { level: "ok", name, detail: "folder trust is off (security.folderTrust.enabled: false)" };
  if (f.env.GEMINI_CLI_TRUST_WORKSPACE === "true")
    return { level: "ok", name, detail: "GEMINI_CLI_TRUST_WORKSPACE=true" };
  if (f.trusted) return { level: "ok", name, detail: `${f.project} is trusted` };
  return {
    level: "warn",
    name,
    detail: `${f.project} is not trusted: headless \`gemini -p\` exits 55 here (interactive runs ask)`,
    fix: "trust it once in an interactive gemini, or run headless with --skip-trust (or GEMINI_CLI_TRUST_WORKSPACE=true)",
  };
}
