/**
 * What a Claude Code transcript tells about its session's context window (issue 20): the
 * client version that wrote it, the model, and where the session compacted by itself. Pure;
 * `resolveWindow` (core/window.ts) weighs it against the other sources.
 */
import { contextTokens, count, WINDOW_1M, WINDOW_200K } from "./usage.ts";
import { fieldsOf, isObject } from "./json.ts";

/** An automatic compaction of the session: the context size it compacted at and the model then. */
export interface AutoCompaction {
  preTokens: number;
  model?: string;
}

/** The window evidence of one transcript, filled line by line by `noteWindowLine`. */
export interface TranscriptWindow {
  /** The newest `version` of a main-chain line (the client that wrote it). */
  clientVersion?: string;
  /** The model of the newest main-chain request. */
  model?: string;
  /** The largest context of a main-chain request. */
  peakTokens: number;
  /** The newest automatic compaction. */
  autoCompaction?: AutoCompaction;
  /** The newest commit trailer the agent signed, or `/model` switch, with the model it names ({@link signedModel}). */
  signed?: SignedModel;
  /** A `/model` switch not yet followed by a request: the display name it set (none: a default or an unknown name). */
  switching?: { name?: string; oneM: boolean };
}

/**
 * The model a commit's `Co-Authored-By: Claude Opus 4.6 (1M context) <noreply@anthropic.com>` names.
 * Claude Code writes that line into its system prompt from the model it runs: the display name, with
 * " (1M context)" exactly when it runs the model's `[1m]` variant (read in the 2.1.197 and 2.1.332
 * binaries), so a session's own commits say which window the client gave it.
 */
export interface SignedModel {
  /** The request's model id when the agent wrote the trailer (`claude-opus-4-6`). */
  model: string;
  oneM: boolean;
  /**
   * Where it was read when not from the session's own commit trailer: `model_switch`, the user's `/model`
   * (the client answers `Set model to <display name>` from the same display name, `Opus 4.8 (1M context)`;
   * read in the 2.1.197 binary, and the next request runs it); `project_sessions`, the user's other
   * sessions of the same project ({@link kinVerdict}).
   */
  by?: "model_switch" | "project_sessions";
}

/** The trailer's model and its 1M tag: `Opus 4.6` matches `claude-opus-4-6`. */
const TRAILER = /Co-Authored-By: Claude ([A-Z][A-Za-z]* \d+(?:\.\d+)?)( \(1M context\))? <noreply@anthropic\.com>/;
/**
 * `/model`'s answer, its name bold: in ANSI, or in backticks where color is off (2.1.332 with `NO_COLOR`):
 * `Set model to Opus 4.8 (1M context) (default) and saved as …`.
 */
const SWITCH = /<local-command-stdout>Set model to (?:\u001b\[[0-9;]*m|`)?([^\u001b<`]*)/;
const SWITCH_NAME = /^([A-Z][A-Za-z]* \d+(?:\.\d+)?)( \(1M context\))?(?: \(default\))?(?: and | for | with | ·|$)/;

/**
 * The client compacts on its own at its window minus min(max output, 20k) minus 13k: 167k of 200k
 * (read in the client binary; the real 2.1.39 transcripts compacted at 167,094). From this many tokens up
 * to 200k an automatic compaction shows a 200k window; below, an override moved the point.
 */
const AUTO_COMPACT_200K_FROM = 150_000;

/** Empty evidence. */
export function emptyTranscriptWindow(): TranscriptWindow {
  return { peakTokens: 0 };
}

/** Adds one parsed transcript line (in place); subagent lines and `<synthetic>` messages say nothing. */
export function noteWindowLine(w: TranscriptWindow, e: Record<string, unknown>): void {
  if (e.isSidechain === true) return;
  if (typeof e.version === "string" && /^\d+\.\d+\.\d+/.test(e.version)) w.clientVersion = e.version;
  if (e.type === "user") return noteSwitch(w, fieldsOf(e.message).content);
  if (e.type === "system" && e.subtype === "compact_boundary") {
    const meta = fieldsOf(e.compactMetadata);
    const pre = count(meta.preTokens);
    if (meta.trigger === "auto" && pre > 0) w.autoCompaction = { preTokens: pre, model: w.model };
    return;
  }
  const m = fieldsOf(e.message);
  if (e.type !== "assistant" || typeof m.model !== "string" || m.model === "<synthetic>") return;
  if (w.switching) {
    // The switch names this request's model: its window is the variant it set. A default or unknown name clears it.
    const { name, oneM } = w.switching;
    w.switching = undefined;
    w.signed = name && names(name, m.model) ? { model: m.model, oneM, by: "model_switch" } : undefined;
  }
  const signed = signedModel(m.content, m.model);
  if (signed) w.signed = signed;
  if (!isObject(m.usage)) return;
  w.model = m.model;
  w.peakTokens = Math.max(w.peakTokens, contextTokens(m.usage));
}

/**
 * The window an automatic compaction shows, when it still describes the session: the same
 * model (a `/model` switch may change the window) and, for 200k, no request above it.
 */
export function compactionWindow(
  c: AutoCompaction | undefined,
  model: string | undefined,
  usedTokens: number,
): number | undefined {
  if (!c || (c.model && model && strip1m(c.model) !== strip1m(model))) return undefined;
  if (c.preTokens > WINDOW_200K) return WINDOW_1M;
  return c.preTokens >= AUTO_COMPACT_200K_FROM && usedTokens <= WINDOW_200K ? WINDOW_200K : undefined;
}

/** The commit trailer a Bash call of this request signs, when it names the request's own model. */
function signedModel(content: unknown, model: string): SignedModel | undefined {
  if (!Array.isArray(content)) return undefined;
  for (const b of content) {
    const input = fieldsOf(fieldsOf(b).input);
    const t = typeof input.command === "string" ? TRAILER.exec(input.command) : null;
    // "Opus 4.6" is claude-opus-4-6; a trailer copied from another model's commit says nothing.
    if (t && names(t[1]!, model)) return { model, oneM: t[2] !== undefined };
  }
  return undefined;
}

/** A `/model` answer in a user line's text (`<local-command-stdout>`), kept until the next request shows the model. */
function noteSwitch(w: TranscriptWindow, content: unknown): void {
  const text = typeof content === "string" ? content : "";
  const set = SWITCH.exec(text);
  if (!set) return;
  const named = SWITCH_NAME.exec(set[1]!.trim());
  w.switching = named ? { name: named[1]!, oneM: named[2] !== undefined } : { oneM: false };
}

/** True when a display name (`Opus 4.6`) is this model id's (`claude-opus-4-6`). */
function names(display: string, model: string): boolean {
  return strip1m(model).includes(display.toLowerCase().replace(/[ .]/g, "-"));
}

/** The session's signed model when it is the model in question (a `/model` switch may change the window). */
export function signedFor(signed: SignedModel | undefined, model: string | undefined): SignedModel | undefined {
  return signed && model && strip1m(signed.model) === strip1m(model) ? signed : undefined;
}

/**
 * What another session of the same user and project says of `model`'s window: its own `/model` answer or
 * commit trailer for that model, else its automatic compaction on it (at 150k–200k: 200k; above: 1M). The
 * plan decides whether the client's default Opus gets 1M (Max, Team and Enterprise do, Pro and API keys do
 * not), and a user's sessions share the plan.
 */
export function kinVerdict(w: TranscriptWindow, model: string): SignedModel | undefined {
  const told = signedFor(w.signed, model);
  if (told) return { model, oneM: told.oneM, by: "project_sessions" };
  const compacted = compactionWindow(w.autoCompaction, model, 0);
  return compacted ? { model, oneM: compacted === WINDOW_1M, by: "project_sessions" } : undefined;
}

/** A model id without its 1M tag: `claude-opus-4-6[1m]` is `claude-opus-4-6`. */
export function strip1m(model: string): string {
  return model.trim().replace(/\[1m\]$/i, "");
}
