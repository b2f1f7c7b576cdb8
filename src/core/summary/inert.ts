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

/** Bidi controls, zero-width and other invisible characters, the BOM and interlinear annotations: removed. */
const INVISIBLE = /[\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]/g;

/** Longest any one field of the summary may be (the goal and latest request; most are shorter). */
const FIELD_MAX = 600;

/** `text` as one line: escape sequences removed whole, every other control or invisible character gone, cut to `max`. */
export function dataLine(text: string, max = FIELD_MAX): string {
  const flat = stripAnsi(text).replace(INVISIBLE, "").replace(BREAKS, " ");
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

function cap(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
