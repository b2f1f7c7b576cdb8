/**
 * Text from the transcript, the file system, git or a tool, made inert before it is written into a
 * handoff summary, its twin or the resume prompt: one line, length-capped, no control, bidi or
 * zero-width character, and (in Markdown) no `<`, so it can neither start a line of its own
 * (a heading, a task) nor close or imitate the prompt's `<previous-session-summary>` framing. Pure.
 */
import { isValidSessionId } from "../session-id.ts";
import { stripAnsi } from "../terminal.ts";
import { isValidTaskId } from "../track/stamp.ts";
import type { ChainTask, SummaryTwin } from "./chain.ts";

/** C0 (newlines included), DEL, C1 (NEL), and the line and paragraph separators: each becomes a space. */
const BREAKS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g;

/**
 * Every invisible or format character, removed: general categories Cf (bidi controls, zero-width
 * characters, the BOM, invisible operators U+2061–U+2064, Unicode tags U+E0001 and U+E0020–E007F),
 * Co (private use), Cn (unassigned, the rest of the tag block included) and Cs (a lone surrogate),
 * the variation selectors (U+FE00–FE0F, U+E0100–E01EF, Mongolian U+180B–180F) and U+180E. A ZWJ (U+200D) between two
 * emoji is kept (ZWJ_EMOJI), so 👩‍💻 stays one picture; see docs/track-finalize.md.
 */
const INVISIBLE = /[\p{Cf}\p{Co}\p{Cn}\p{Cs}\u180e\p{Variation_Selector}\u{e0000}-\u{e007f}]/gu;

/** A ZWJ joining two emoji (the left one may carry a skin-tone modifier): the one format character kept. */
const ZWJ_EMOJI = /(?<=[\p{Extended_Pictographic}\p{Emoji_Modifier}])\u200d(?=\p{Extended_Pictographic})/gu;

/** Any character outside ASCII. */
const NON_ASCII = /[^\u0000-\u007f]/;

/** Stands in for a kept ZWJ while INVISIBLE runs (a noncharacter: never in real text, and itself Cn). */
const KEEP = "\u{10fffe}";

/** Longest any one field of the summary may be (the goal and latest request; most are shorter). */
const FIELD_MAX = 600;

/** `text` as one line: escape sequences removed whole, every other control or invisible character gone, cut to `max`. */
export function dataLine(text: string, max = FIELD_MAX): string {
  const flat = invisibleGone(stripAnsi(text)).replace(BREAKS, " ");
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** Like dataLine, with white space collapsed and trimmed (for prose fields of the twin). */
export function cleanLine(text: string, max: number): string {
  return cap(dataLine(text, Number.POSITIVE_INFINITY).replace(/\s+/g, " ").trim(), max);
}

/** A path as one clean line; a long one keeps its start and its end (the file name), with `…` between. */
export function cleanPath(path: string, max = 240): string {
  const flat = cleanLine(path, Number.MAX_SAFE_INTEGER);
  if (flat.length <= max) return flat;
  const head = Math.floor(max / 4);
  return `${flat.slice(0, head)}…${flat.slice(flat.length - (max - head - 1))}`;
}

/**
 * Every `<` as `&lt;`: no tag can be opened or closed by data. A `>` stays: without a `<` it makes
 * no tag, and commands keep their redirections readable (`2>&1`, `> out.txt`).
 */
export function escapeMarkup(text: string): string {
  return text.replace(/</g, "&lt;");
}

/** One field as it goes into Markdown or a prompt: dataLine, then escapeMarkup. */
export function inertLine(text: string, max = FIELD_MAX): string {
  return escapeMarkup(dataLine(text, max));
}

/**
 * A copy of `value` with every string in its plain objects and arrays made inert (inertLine);
 * numbers, booleans and null as they are. Maps and Sets are passed through as they are: the
 * summary only counts them.
 */
export function inertDeep<T>(value: T): T {
  return mapStrings(value, (s) => inertLine(s));
}

/** A task id ctx accepts from a task tool: digits or a short id of letters, digits, `-` and `_`. */
export function isTaskId(id: unknown): id is string {
  return typeof id === "string" && /^[A-Za-z0-9_-]{1,40}$/.test(id);
}

/** The statuses a task can have; anything else is read as pending. */
const STATUSES = new Set(["pending", "in_progress", "completed", "deleted"]);

/**
 * The twin with every field from outside one clean line (cleanLine / cleanPath), capped as the
 * transcript reader caps it; tasks without a valid id (isTaskId) and sessions without a valid
 * session id are dropped. Applied to the twin ctx writes and to a twin read back from disk. A
 * field this function does not name is still cleaned (one line, FIELD_MAX), never dropped.
 */
export function cleanTwin(t: SummaryTwin): SummaryTwin {
  const c = mapStrings(t, (s) => cleanLine(s, FIELD_MAX));
  const task = (x: ChainTask, i: number, all: ChainTask[]): ChainTask => ({
    ...all[i]!,
    subject: cleanLine(x.subject, 160),
    status: STATUSES.has(x.status) ? x.status : "pending",
    list: cleanLine(x.list, 128),
  });
  const tasks = (xs: ChainTask[], cs: ChainTask[]) =>
    xs.map((x, i) => task(x, i, cs)).filter((x, i) => isTaskId(xs[i]!.id) && x.subject !== "");
  const opt = (s: string | null, max: number) => (s === null ? null : cleanLine(s, max) || null);
  return {
    ...c,
    version: 1,
    task_id: isValidTaskId(t.task_id) ? t.task_id : "unknown",
    session_id: isValidSessionId(t.session_id) ? t.session_id : "unknown",
    sessions: t.sessions.filter((s) => isValidSessionId(s)),
    goal: opt(t.goal, FIELD_MAX),
    latest_request: opt(t.latest_request, FIELD_MAX),
    open_tasks: tasks(t.open_tasks, c.open_tasks),
    completed_tasks: tasks(t.completed_tasks, c.completed_tasks),
    files: firstBy(
      t.files.map((f, i) => ({
        ...c.files[i]!,
        path: cleanPath(f.path),
        ops: cleanLine(f.ops, 80),
        ...(f.from !== undefined ? { from: cleanPath(f.from) } : {}),
      })),
      (f) => f.path,
    ),
    errors: firstBy(
      t.errors.map((e, i) => ({
        ...c.errors[i]!,
        tool: cleanLine(e.tool, 60),
        target: cleanPath(e.target, 160),
        message: cleanLine(e.message, 240),
        key: cleanLine(e.key, 400),
      })),
      (e) => e.key,
    ),
    decisions: t.decisions.map((d) => cleanLine(d, 300)).filter((d) => d !== ""),
    last_step: t.last_step ? { text: cleanLine(t.last_step.text, 240), session: t.last_step.session } : null,
    written_at: cleanLine(t.written_at, 40),
  };
}

// --- internal ---

/**
 * The items whose `key` was not seen before (lists are newest first, so the newest stays): a path
 * or error key shortened in one session's twin and raw in the next would otherwise show twice.
 */
function firstBy<T>(items: T[], key: (x: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((x) => !seen.has(key(x)) && Boolean(seen.add(key(x))));
}

/** `value` with `fn` applied to every string in its plain objects and arrays; anything else as it is. */
function mapStrings<T>(value: T, fn: (s: string) => string): T {
  if (typeof value === "string") return fn(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn)) as T;
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = mapStrings(v, fn);
    return out as T;
  }
  return value;
}

/**
 * `text` without INVISIBLE: variation selectors go first, so a ZWJ between emoji that had one
 * (❤️‍🔥) still has an emoji on each side; every other ZWJ goes with the rest.
 */
function invisibleGone(text: string): string {
  if (!NON_ASCII.test(text)) return text; // ASCII holds no format character: most fields stop here
  const plain = text.replace(/\p{Variation_Selector}/gu, "");
  if (!plain.includes("\u200d")) return plain.replace(INVISIBLE, "");
  const kept = plain.replace(/\u{10fffe}/gu, "").replace(ZWJ_EMOJI, KEEP);
  return kept.replace(INVISIBLE, (c) => (c === KEEP ? "\u200d" : ""));
}

function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
