/**
 * The context window of a session, resolved from evidence in a fixed order (issues 16 and 20),
 * never guessed low when something proves a larger one, and never taken from the default of a
 * client other than the one that wrote the session. Pure: the evidence is gathered by
 * `src/io/session/window-source.ts`, the transcript readers and `core/window-evidence.ts`.
 */
import { WINDOW_1M, WINDOW_200K, windowFor } from "./usage.ts";
import { modelWindow } from "./agents/index.ts";
import type { Env } from "./deps.ts";
import { type AutoCompaction, compactionWindow, type SignedModel, signedFor, strip1m } from "./window-evidence.ts";

/** Where a window came from: short, stable names (session state, `ctx status --json`, `ctx doctor`). */
export type WindowSource =
  | ("statusline" | "compaction" | "remembered" | "client_args" | "client_env" | "settings")
  | ("client_default" | "config" | "model_name")
  /** The agent's commit trailer names the model with " (1M context)" (core/window-evidence.ts `SignedModel`). */
  | "commit_trailer"
  /** The user's `/model` set the model's " (1M context)" variant, as the client's answer in the transcript says. */
  | "model_switch"
  /** The same user's other sessions of the project ran the model at 1M (core/window-evidence.ts `kinVerdict`). */
  | "project_sessions"
  /** The transcript records the window the client uses (Codex CLI's `model_context_window`). */
  | "transcript"
  /** The hook payload carries the model's limits (a client's plugin, from the client's own model: the adapter's `hookUsage`). */
  | "hook";

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
  /** True when `model` is the client's default spelled by `ANTHROPIC_DEFAULT_OPUS_MODEL` (its `[1m]` is the default's). */
  implicit?: boolean;
}

/** Everything the resolver looks at. */
export interface WindowEvidence {
  /** `context_window_size` of a status-line payload for this session (its bridge file), if any. */
  statusline?: number;
  /** The session's model id as the transcript names it (never with `[1m]`). */
  model?: string;
  /** The client version the transcript records (`version`), e.g. `2.1.197`. */
  clientVersion?: string;
  /** The session's newest automatic compaction (`compact_boundary`, trigger `auto`), if ctx read it. */
  autoCompaction?: AutoCompaction;
  /** The newest commit trailer of the session's agent, or `/model` answer, with the model it names. */
  signed?: SignedModel;
  /** What the newest other session of the same project says of the model's window (`kinVerdict`). */
  kin?: SignedModel;
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

/** The first client version whose default Opus has a 1M window, on some plans only (docs/track-finalize.md). */
const DEFAULT_1M_SINCE = [2, 1, 75] as const;
/** The first client version that gives the newer models their native 1M window behind any API URL (observed). */
const NATIVE_1M_SINCE = [2, 1, 328] as const;
/**
 * Models the client's own model table gives `context: {window: 1e6, native_1m: true}` (2.1.197, 2.1.332;
 * docs/track-finalize.md): run at 1M without `[1m]`. Opus 4.6 and Sonnet 4.x have 200k there.
 */
const NATIVE_1M_MODELS =
  /^claude-(opus-4-[78]|opus-5|opus-5-5|sonnet-5|sonnet-5-5|haiku-5-5|fable-5(-\d)?|mythos-5(-\d)?)(-\d{8})?$/;
const ALIASES = new Set(["opus", "sonnet", "haiku", "best", "opusplan"]);
const ALIAS_ENV: Record<string, string> = {
  opus: "ANTHROPIC_DEFAULT_OPUS_MODEL",
  sonnet: "ANTHROPIC_DEFAULT_SONNET_MODEL",
  haiku: "ANTHROPIC_DEFAULT_HAIKU_MODEL",
};

/**
 * The session's window, from the first source that knows it (docs/track-finalize.md, "The window of a session"):
 * 1. a status-line payload for this session (`statusline`: its bridge file, or the window a tracked
 *    state took from one);
 * 2. where the session compacted by itself (`compaction`): the client compacts near its window
 *    (200k − 20k output − 13k = 167k), so an automatic compaction at 150k–200k shows 200k, above
 *    200k shows 1M; only while the model is the one that compacted and no request passed 200k;
 *    then the agent's commit trailer (`commit_trailer`) or the user's `/model` answer in the transcript
 *    (`model_switch`), the newer one, else what the user's other sessions of the project say of the
 *    model (`project_sessions`): "(1M context)" is 1M, a plain name rules out the client's 1M default
 *    (step 5) for its model;
 * 3. a window remembered for the same model id on this machine (`remembered`; the id carries
 *    `[1m]` when the client was asked for a 1M model, as the status line's `model.id` does);
 * 4. what the running client was asked for (`client_args`, `client_env`, `settings`):
 *    `[1m]` means 1M, else the model's own window as the client version knows it;
 * 5. the client's own default when nothing chose a model (`client_default`): a 1M Opus model,
 *    unless the transcript shows a non-Opus model (a `/model` switch) or was written by a client
 *    older than that default (before 2.1.75); with no running client seen, the transcript's
 *    client stands for it (its version known, 2.1.75 or later, and an Opus model);
 * 6. `context.window_size` (`config`);
 * 7. the model-name rule (`model_name`: 1M for a model the client's table runs natively at 1M
 *    when nothing chose another, for a model its client's `windowOf` knows, `[1m]` or usage past 200k).
 */
export function resolveWindow(e: WindowEvidence): WindowResolution {
  if (e.statusline && e.statusline > 0) return { window: e.statusline, source: "statusline" };
  const compacted = compactionWindow(e.autoCompaction, e.model, e.usedTokens);
  if (compacted) return { window: compacted, source: "compaction" };
  // The client told the agent which variant it runs: its `[1m]` one, or the plain one (no 1M default).
  const signed = signedFor(e.signed, e.model) ?? signedFor(e.kin, e.model);
  if (signed?.oneM) return { window: WINDOW_1M, source: signed.by ?? "commit_trailer" };
  const found = e.client?.found ? e.client : undefined;
  // The running client's default describes the session only if the client that wrote it had that default.
  const older = predates1mDefault(e.clientVersion);
  const choice = found?.implicit && older && found.model ? { ...found, model: strip1m(found.model) } : found;
  // No client seen (a typed finalize, `ctx status`): the transcript's own client, when it had the 1M default.
  const unseen = !found && !!e.model && versionAtLeast(e.clientVersion, DEFAULT_1M_SINCE);
  const defaulted = (choice ? choice.model === null && !older : unseen) && defaultApplies(e.model) && !signed;
  const want1m = (choice?.model ? has1m(choice.model) : false) || defaulted;
  const key = e.model ? `${strip1m(e.model)}${want1m ? "[1m]" : ""}` : undefined;
  const remembered = key ? e.remembered[key] : undefined;
  if (remembered && remembered > 0) return { window: remembered, source: "remembered" };
  if (choice?.model && choice.source)
    return { window: chosenWindow(choice.model, e.model, e.clientVersion, e.usedTokens), source: choice.source };
  if (defaulted) return { window: WINDOW_1M, source: "client_default" };
  if (e.configured !== false && e.configured > 0) return { window: e.configured, source: "config" };
  if (!choice?.model && e.model && NATIVE_1M_MODELS.test(strip1m(e.model)))
    return { window: WINDOW_1M, source: "model_name" };
  return { window: windowFor(e.model, e.usedTokens, false, modelWindow(e.model)), source: "model_name" };
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
    return { model: has1m(opus) ? opus : `${opus}[1m]`, source: "client_env", implicit: !has1m(opus) };
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

/** True when the transcript's client version is known and older than the first with a 1M default. */
function predates1mDefault(version: string | undefined): boolean {
  return /^\d+\.\d+\.\d+/.test(version ?? "") && !versionAtLeast(version, DEFAULT_1M_SINCE);
}

/** With nothing chosen, the client's default (Opus 4.6 or later, 1M) serves the session unless the transcript shows another. */
function defaultApplies(sessionModel: string | undefined): boolean {
  return !sessionModel || /^claude-opus-(4-[6-9]|[5-9])(\b|-|$)/i.test(sessionModel);
}

const nonEmpty = (v: string | undefined): boolean => typeof v === "string" && v.trim() !== "";

function versionAtLeast(version: string | undefined, min: readonly number[]): boolean {
  const v = version
    ?.match(/^(\d+)\.(\d+)\.(\d+)/)
    ?.slice(1)
    .map(Number);
  return !!v && (v[0]! - min[0]! || v[1]! - min[1]! || v[2]! - min[2]!) >= 0;
}
