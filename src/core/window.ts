/**
 * The context window of a session, resolved from evidence in a fixed order
 * (issue 16), never guessed low when something proves a larger one. Pure: the
 * evidence is gathered by `src/io/session/window-source.ts`.
 */
import { WINDOW_1M, WINDOW_200K, windowFor } from "./usage.ts";
import type { Env } from "./deps.ts";

/** Where a window came from: short, stable names (session state, `ctx status --json`, `ctx doctor`). */
export type WindowSource =
  | "statusline"
  | "remembered"
  | "client_args"
  | "client_env"
  | "settings"
  | "client_default"
  | "config"
  | "model_name";

/** A resolved window and the source that decided it. */
export interface WindowResolution {
  window: number;
  source: WindowSource;
}

/** What the running Claude Code client was asked for, gathered once per client process. */
export interface ClientChoice {
  /** True when the Claude Code process was found and its arguments and environment were read. */
  found: boolean;
  /** The model it was asked for (`--model`, `ANTHROPIC_MODEL`, settings `model`), or null when nothing chose one. */
  model: string | null;
  /** Where `model` came from; null when nothing chose one. */
  source: "client_args" | "client_env" | "settings" | null;
}

/** Everything the resolver looks at. */
export interface WindowEvidence {
  /** `context_window_size` of a status-line payload for this session (its bridge file), if any. */
  statusline?: number;
  /** The session's model id as the transcript names it (never with `[1m]`). */
  model?: string;
  /** The client version the transcript records (`version`), e.g. `2.1.197`. */
  clientVersion?: string;
  /** Windows that status-line payloads reported, per model id, on this machine. */
  remembered: Record<string, number>;
  /** What the running client was asked for; undefined when it is not known. */
  client?: ClientChoice;
  /** `context.window_size` from ctx's config (false = off). */
  configured: number | false;
  /** Tokens in the context now. */
  usedTokens: number;
}

/** Model settings from the user, project and local settings files (undefined = no `model` key). */
export interface SettingsModels {
  user?: string;
  project?: string;
  local?: string;
}

/** The first client version whose own model table gives the newer models a native 1M window (observed). */
const NATIVE_1M_SINCE = [2, 1, 328] as const;
/** Models Claude Code 2.1.328 runs with a 1M window without `[1m]` (observed: test/fixtures/README.md). */
const NATIVE_1M_MODELS = /^claude-(opus-4-8|opus-5|opus-5-5|sonnet-5|sonnet-5-5|haiku-5-5)(-\d{8})?$/;
const ALIASES = new Set(["opus", "sonnet", "haiku", "best", "opusplan"]);
const ALIAS_ENV: Record<string, string> = {
  opus: "ANTHROPIC_DEFAULT_OPUS_MODEL",
  sonnet: "ANTHROPIC_DEFAULT_SONNET_MODEL",
  haiku: "ANTHROPIC_DEFAULT_HAIKU_MODEL",
};

/**
 * The session's window, from the first source that knows it:
 * 1. a status-line payload for this session (`statusline`), or one remembered for the
 *    same model id on this machine (`remembered`; the id carries `[1m]` when the client
 *    was asked for a 1M model, as the status line's `model.id` does);
 * 2. what the running client was asked for (`client_args`, `client_env`, `settings`):
 *    `[1m]` means 1M, else the model's own window as the client version knows it;
 * 3. the client's own default when nothing chose a model (`client_default`): a 1M model
 *    in both pinned clients, unless the transcript shows a non-Opus model (a `/model` switch);
 * 4. `context.window_size` (`config`);
 * 5. the model-name rule (`model_name`: 1M for `[1m]` and Gemini models or once usage passed 200k).
 */
export function resolveWindow(e: WindowEvidence): WindowResolution {
  if (e.statusline && e.statusline > 0) return { window: e.statusline, source: "statusline" };
  const choice = e.client?.found ? e.client : undefined;
  const defaulted = !!choice && choice.model === null && defaultApplies(e.model);
  const want1m = (choice?.model ? has1m(choice.model) : false) || defaulted;
  const key = e.model ? `${strip1m(e.model)}${want1m ? "[1m]" : ""}` : undefined;
  const remembered = key ? e.remembered[key] : undefined;
  if (remembered && remembered > 0) return { window: remembered, source: "remembered" };
  if (choice?.model && choice.source)
    return { window: chosenWindow(choice.model, e.model, e.clientVersion, e.usedTokens), source: choice.source };
  if (defaulted) return { window: WINDOW_1M, source: "client_default" };
  if (e.configured !== false && e.configured > 0) return { window: e.configured, source: "config" };
  return { window: windowFor(e.model, e.usedTokens, false), source: "model_name" };
}

/**
 * The model the client was asked for, in Claude Code's own order: `--model` in its
 * arguments, `ANTHROPIC_MODEL` in its environment, then the local, project and user
 * settings. An alias is replaced by its `ANTHROPIC_DEFAULT_<ALIAS>_MODEL` when set
 * (keeping `[1m]`); with nothing chosen, the Opus one stands for the default `opus[1m]`.
 */
export function chooseModel(argv: string[], env: Env, settings: SettingsModels): Omit<ClientChoice, "found"> {
  const fromArgs = modelArg(argv);
  const picked: Omit<ClientChoice, "found"> | undefined = fromArgs
    ? { model: fromArgs, source: "client_args" }
    : nonEmpty(env.ANTHROPIC_MODEL)
      ? { model: env.ANTHROPIC_MODEL!.trim(), source: "client_env" }
      : [settings.local, settings.project, settings.user].some(nonEmpty)
        ? { model: [settings.local, settings.project, settings.user].find(nonEmpty)!.trim(), source: "settings" }
        : undefined;
  if (!picked) {
    // The default is `opus[1m]`: with the Opus variable set, both clients send that id with 1M (observed).
    const opus = env.ANTHROPIC_DEFAULT_OPUS_MODEL?.trim();
    if (!opus) return { model: null, source: null };
    return { model: has1m(opus) ? opus : `${opus}[1m]`, source: "client_env" };
  }
  const alias = strip1m(picked.model!).toLowerCase();
  const mapped = ALIAS_ENV[alias] ? env[ALIAS_ENV[alias]!] : undefined;
  if (!nonEmpty(mapped)) return picked;
  const model = has1m(picked.model!) && !has1m(mapped!) ? `${mapped!.trim()}[1m]` : mapped!.trim();
  return { model, source: "client_env" };
}

/** The `--model` value in a Claude Code argv (`--model X` or `--model=X`; the last one wins). */
export function modelArg(argv: string[]): string | undefined {
  let out: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--") break;
    if (a === "--model" && nonEmpty(argv[i + 1])) out = argv[++i]!.trim();
    else if (a.startsWith("--model=") && nonEmpty(a.slice(8))) out = a.slice(8).trim();
  }
  return out;
}

/** True when a model name carries the 1M tag (`opus[1m]`, `claude-sonnet-4-5[1m]`). */
export function has1m(model: string): boolean {
  return /\[1m\]$/i.test(model.trim());
}

// --- internal ---

/** The window of a chosen model: `[1m]` is 1M; else the id's own window as this client knows it. */
function chosenWindow(chosen: string, sessionModel: string | undefined, version: string | undefined, used: number) {
  if (has1m(chosen)) return WINDOW_1M;
  // An alias resolves to an id only the client knows: the transcript shows which one it sent.
  const id = ALIASES.has(chosen.toLowerCase()) ? sessionModel : chosen;
  if (id && NATIVE_1M_MODELS.test(id) && versionAtLeast(version, NATIVE_1M_SINCE)) return WINDOW_1M;
  return used > WINDOW_200K ? WINDOW_1M : WINDOW_200K;
}

/** With nothing chosen, the client's default (an Opus model, 1M) serves the session unless the transcript shows another. */
function defaultApplies(sessionModel: string | undefined): boolean {
  return !sessionModel || /^claude-opus-/i.test(sessionModel);
}

function strip1m(model: string): string {
  return model.trim().replace(/\[1m\]$/i, "");
}

function nonEmpty(v: string | undefined): boolean {
  return typeof v === "string" && v.trim() !== "";
}

function versionAtLeast(version: string | undefined, min: readonly number[]): boolean {
  const parts = version?.match(/^(\d+)\.(\d+)\.(\d+)/);
  if (!parts) return false;
  for (let i = 0; i < 3; i++) {
    const v = Number(parts[i + 1]);
    if (v !== min[i]) return v > min[i]!;
  }
  return true;
}
