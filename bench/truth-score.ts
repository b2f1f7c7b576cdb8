/**
 * The scorer of the summary-truth benchmark (bench/summary-truth.ts): reads what a
 * handoff summary says (its Markdown and its JSON twin) and scores each field against
 * a labelled answer written by reading the transcript (bench/corpus/*.label.json).
 * Pure: no file system, no process. The scoring rules are in bench/corpus/README.md.
 */

/** A phrase to find, or a list of alternatives of which one is enough. */
export type Phrase = string | string[];

/** The labelled answer for one transcript (the fields the scorer uses). */
export interface Label {
  transcript: string;
  cwd: string;
  goal: { phrases: Phrase[]; forbid?: string[] };
  latest_request: { phrases: Phrase[]; forbid?: string[] };
  open_items: { items: Phrase[][]; forbid: string[]; tracker: string | null };
  errors_open: { match: string }[];
  errors_neutral: { match: string }[];
  files: { modified: string[]; optional: string[]; deleted: string[] };
  subagent_runs: number;
  usage: { tokens: number };
  window: { tokens: number };
  /**
   * The state at the client's compaction, for scoring its compaction summary beside ctx's
   * summary of the transcript up to there: `line` holds the summary, `cut` the compaction
   * boundary; the goal is the session's.
   */
  peer?: {
    line: number;
    cut: number;
    latest_request: Label["latest_request"];
    open_items: Label["open_items"];
    errors_open: Label["errors_open"];
    files: Label["files"];
  };
}

/** What one summary says, as the scorer reads it. */
export interface Reading {
  goal: string;
  latest: string;
  /** The open-work section's text, and its bullets that are not an "(none)" marker. */
  open: { text: string; bullets: string[] };
  /** One string per reported open error (tool, target, message). */
  errors: string[];
  /** Reported files: path, and whether the summary shows it as deleted or moved away. */
  files: { path: string; deleted: boolean }[];
  subagentRuns: number;
  usedTokens: number | null;
  window: number | null;
}

/** The fields scored, in report order. */
export const FIELDS = ["goal", "latest", "open", "errors", "files", "subagents", "usage", "window"] as const;
/** One field's name. */
export type Field = (typeof FIELDS)[number];
/** A score in [0, 1] per field. */
export type Scores = Record<Field, number>;

/** Markup that must never show as the user's words (a command's or the client's, not a request). */
export const MARKUP = [
  "<command-",
  "<local-command",
  "<bash-std",
  "<bash-input",
  "<task-notification",
  "Caveat: The messages",
];
/** Usage within this fraction of the label counts as right. */
export const USAGE_TOLERANCE = 0.02;

/** Splits Markdown into `## ` sections: heading → body. */
export function sections(md: string): Map<string, string> {
  const out = new Map<string, string>();
  let head = "";
  let body: string[] = [];
  for (const line of md.split("\n")) {
    if (line.startsWith("## ")) {
      if (head) out.set(head, body.join("\n"));
      head = line.slice(3).trim();
      body = [];
    } else body.push(line);
  }
  if (head) out.set(head, body.join("\n"));
  return out;
}

/** The body of the first section whose heading matches `re`, or undefined. */
export function section(secs: Map<string, string>, re: RegExp): string | undefined {
  for (const [h, b] of secs) if (re.test(h)) return b;
  return undefined;
}

/** Reads a summary's Markdown and its JSON twin (null when missing or unreadable). */
export function readSummary(md: string, twin: unknown): Reading {
  const secs = sections(md);
  const t = isObj(twin) ? twin : {};
  const goal = section(secs, /^goal/i) ?? str(t.goal);
  // No latest request apart from the goal: the goal is the newest request the summary gives.
  const latest = section(secs, /latest request|newest request/i) ?? (str(t.latest_request) || goal);
  const openText = section(secs, /remaining|open (tasks|items|work)|still open/i) ?? "";
  const bullets = bulletsOf(openText).filter((b) => !/^\(?\s*(no open|none|nothing)/i.test(b));
  const context = /Context at handoff:([^\n]*)/i.exec(md)?.[1] ?? "";
  const m = /([\d,]+)\s*\/\s*([\d,]+)\s*tokens/i.exec(context);
  const runs = /(\d+)\s+subagent runs?/i.exec(md) ?? /subagents?(?: runs)?:\s*(\d+)/i.exec(md);
  return {
    goal,
    latest,
    open: { text: openText, bullets },
    errors: reportedErrors(
      t,
      section(secs, /(unresolved|open|still).*error|error.*(open|unresolved)/i) ??
        section(secs, /^(?!.*(fixed|resolved)).*error/i),
    ),
    files: reportedFiles(t, section(secs, /^files/i)),
    subagentRuns: runs ? Number(runs[1]) : 0,
    usedTokens: m ? num(m[1]!) : null,
    window: m ? num(m[2]!) : null,
  };
}

/** Scores one reading against its label. */
export function score(r: Reading, l: Label): Scores {
  return {
    goal: textScore(r.goal, l.goal.phrases, l.goal.forbid),
    latest: textScore(r.latest, l.latest_request.phrases, l.latest_request.forbid),
    open: openScore(r.open, l.open_items),
    errors: errorScore(r.errors, l),
    files: fileScore(r.files, l),
    subagents: r.subagentRuns === l.subagent_runs ? 1 : 0,
    usage: r.usedTokens !== null && Math.abs(r.usedTokens - l.usage.tokens) <= USAGE_TOLERANCE * l.usage.tokens ? 1 : 0,
    window: r.window === l.window.tokens ? 1 : 0,
  };
}

/** True when `text` holds `phrase` (case-insensitive, runs of white space as one, word edges kept). */
export function hasPhrase(text: string, phrase: string): boolean {
  const words = phrase.trim().split(/\s+/).map(escapeRe).join("\\s+");
  const start = /^\w/.test(phrase.trim()) ? "\\b" : "";
  const end = /\w$/.test(phrase.trim()) ? "\\b" : "";
  return new RegExp(`${start}${words}${end}`, "i").test(text);
}

/** The fraction of `phrases` found in `text`; 0 when a forbidden pattern or raw markup shows. */
export function textScore(text: string, phrases: Phrase[], forbid: string[] = []): number {
  if (!text.trim()) return 0;
  if (MARKUP.some((m) => text.includes(m)) || forbid.some((f) => new RegExp(f, "i").test(text))) return 0;
  if (!phrases.length) return 1;
  const found = phrases.filter((p) => (Array.isArray(p) ? p : [p]).some((alt) => hasPhrase(text, alt))).length;
  return found / phrases.length;
}

/**
 * Open items: the mean of the checks that apply: the expected items found (recall); no
 * forbidden item (a closed one shown as open); no item at all when none is open and no
 * tracker was used; the tracker named when the work was tracked outside the client.
 */
export function openScore(open: Reading["open"], l: Label["open_items"]): number {
  const checks: number[] = [];
  if (l.items.length)
    checks.push(
      l.items.filter((alts) => alts.some((p) => (Array.isArray(p) ? p : [p]).some((a) => hasPhrase(open.text, a))))
        .length / l.items.length,
    );
  if (l.forbid.length) checks.push(l.forbid.some((f) => new RegExp(f, "i").test(open.text)) ? 0 : 1);
  if (!l.items.length && !l.tracker) checks.push(open.bullets.length ? 0 : 1);
  if (l.tracker) checks.push(hasPhrase(open.text, l.tracker) ? 1 : 0);
  return checks.reduce((a, b) => a + b, 0) / checks.length;
}

/** F1 of the reported open errors against the label; neutral ones count neither way. */
export function errorScore(reported: string[], l: Label): number {
  const open = l.errors_open.map((e) => new RegExp(e.match, "i"));
  const neutral = l.errors_neutral.map((e) => new RegExp(e.match, "i"));
  let tp = 0;
  let fp = 0;
  for (const e of reported) {
    if (open.some((re) => re.test(e))) tp++;
    else if (!neutral.some((re) => re.test(e))) fp++;
  }
  const found = open.filter((re) => reported.some((e) => re.test(e))).length;
  return f1(tp, fp, found, open.length);
}

/**
 * F1 of the reported files against the label's modified files. A path under `optional`
 * (changed by a command: lock files, generated snapshots) counts neither way; a deleted
 * file counts neither way when shown as deleted, and as wrong when shown as a live file.
 */
export function fileScore(reported: Reading["files"], l: Label): number {
  const want = new Set(l.files.modified);
  const seen = new Set<string>();
  let tp = 0;
  let fp = 0;
  for (const f of reported) {
    const p = relative(f.path, l.cwd);
    if (want.has(p)) {
      if (!seen.has(p)) tp++;
      seen.add(p);
    } else if (l.files.deleted.includes(p)) {
      if (!f.deleted) fp++;
    } else if (!l.files.optional.some((o) => p === o || (o.endsWith("/") && p.startsWith(o)))) fp++;
  }
  return f1(tp, fp, seen.size, want.size);
}

/**
 * A path relative to the session's working directory (absolute paths elsewhere kept).
 * A Windows session (a cwd like `D:\\repo`) is read with forward slashes on both sides,
 * so the label writes its paths with `/`.
 */
export function relative(path: string, cwd: string): string {
  const win = cwd.includes("\\");
  const slash = (x: string) => (win ? x.replace(/\\/g, "/") : x);
  const p = slash(path.replace(/^`|`$/g, "")).replace(/^\.\//, "");
  const c = slash(cwd);
  const under = win ? p.toLowerCase().startsWith(`${c}/`.toLowerCase()) : p.startsWith(`${c}/`);
  return c && under ? p.slice(c.length + 1) : p;
}

/**
 * How many reported open errors are not still open in the label: a fixed or harmless
 * failure sent back as failing. A neutral one (a look-up of a path that never existed)
 * counts here, since "Still failing … fix it" sends the next agent after it; the issue's
 * "at most 1 held-out session in 10" counts the sessions where this is above 0.
 */
export function falseFailures(reported: string[], l: Label): number {
  const open = l.errors_open.map((e) => new RegExp(e.match, "i"));
  return reported.filter((e) => !open.some((re) => re.test(e))).length;
}

/** The two halves of the corpus: each transcript's half is its repository folder's. */
export type Half = "development" | "held-out";

/** The split file (bench/corpus/split.json): repository folders per half. */
export interface Split {
  development: string[];
  held_out: string[];
}

/** The half of a transcript named relative to the corpus (`<repository>/<file>`), or null when unlisted. */
export function halfOf(name: string, split: Split): Half | null {
  const repo = name.split("/")[0] ?? "";
  if (split.development.includes(repo)) return "development";
  if (split.held_out.includes(repo)) return "held-out";
  return null;
}

/** Fields the held-out half scores more than this below the development half are findings. */
export const HELD_OUT_GAP = 0.05;

/** A held-out field more than HELD_OUT_GAP below its development score. */
export interface Finding {
  field: string;
  development: number;
  heldOut: number;
}

/** The findings: every column whose held-out mean falls more than HELD_OUT_GAP below the development mean. */
export function findings(dev: Record<string, number>, held: Record<string, number>): Finding[] {
  const out: Finding[] = [];
  for (const [field, d] of Object.entries(dev)) {
    const h = held[field];
    if (h !== undefined && d - h > HELD_OUT_GAP + 1e-9) out.push({ field, development: d, heldOut: h });
  }
  return out;
}

/** The fields a client's own compaction summary can be scored on (it states no usage, window or run count). */
export const PEER_FIELDS = ["goal", "latest", "open", "errors", "files"] as const;

/**
 * Reads a client's compaction summary (the text of the user line with `isCompactSummary`:
 * an LLM's handoff of the same work) the way the scorer reads ctx's summary. Claude Code
 * writes numbered sections: "Primary Request and Intent" (the goal), "All user messages"
 * (its last item is the latest request), "Pending Tasks" (open work), "Errors and fixes"
 * (history: an entry is read as still open only when it says it is), "Files and Code
 * Sections" (the files). A section it lacks reads as empty.
 */
export function readPeer(text: string): Reading {
  // The analysis before the summary numbers its own points: read from the last "Primary Request".
  const at = [...text.matchAll(/^.*\d+\.\s+\**\s*Primary Request/gim)].pop()?.index ?? 0;
  const secs = peerSections(text.slice(at));
  const pick = (re: RegExp) => [...secs].find(([h]) => re.test(h))?.[1] ?? "";
  const goal = pick(/primary request|intent/i);
  const users = peerItems(pick(/user messages/i));
  const pending = pick(/pending tasks/i);
  // "Errors and fixes" is history: an entry is open only when it says so.
  const errors = peerItems(pick(/errors?/i)).filter((e) =>
    /still (fail|broken|open|erroring)|unresolved|not (yet )?(fixed|resolved)|remains? (broken|failing)/i.test(e),
  );
  const files = [
    ...pick(/files/i).matchAll(/`([^`\s]+\.[A-Za-z][A-Za-z0-9]*)`|^\s*[-*]\s+\**([\w./@-]+\.[A-Za-z][A-Za-z0-9]*)/gm),
  ]
    .map((m) => m[1] ?? m[2] ?? "")
    .filter(Boolean);
  return {
    goal,
    latest: users.length ? users[users.length - 1]! : goal,
    open: {
      text: pending,
      bullets: peerItems(pending).filter((b) => !/^\(?\s*(no |none|nothing)/i.test(b)),
    },
    errors,
    files: [...new Set(files)].map((path) => ({ path, deleted: false })),
    subagentRuns: 0,
    usedTokens: null,
    window: null,
  };
}

/** The label as it stood at the client's compaction: the session's goal, the `peer` block's other fields. */
export function atCompaction(l: Label, p: NonNullable<Label["peer"]>): Label {
  return {
    ...l,
    latest_request: p.latest_request,
    open_items: p.open_items,
    errors_open: p.errors_open,
    files: p.files,
  };
}

/** The text of the last compaction summary in a Claude Code transcript (`isCompactSummary`), or null. */
export function compactSummaryOf(transcript: string): { line: number; text: string } | null {
  let found: { line: number; text: string } | null = null;
  transcript.split("\n").forEach((raw, i) => {
    if (!raw.includes('"isCompactSummary":true')) return;
    try {
      const o = JSON.parse(raw) as { isCompactSummary?: boolean; message?: { content?: unknown } };
      if (o.isCompactSummary !== true) return;
      const c = o.message?.content;
      const text =
        typeof c === "string"
          ? c
          : Array.isArray(c)
            ? c.map((b) => (isObj(b) && typeof b.text === "string" ? b.text : "")).join("\n")
            : "";
      if (text) found = { line: i + 1, text };
    } catch {
      // not a JSON line
    }
  });
  return found;
}

/** The mean of some numbers (0 for none). */
export function mean(xs: number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}

// --- internal ---

/** The compaction summary's sections: "1. Primary Request and Intent:" (or "## ...") → body. */
function peerSections(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let head = "";
  let body: string[] = [];
  for (const line of text.split("\n")) {
    const m = /^\s*(?:#+\s*)?(?:\*\*)?\d+\.\s+(?:\*\*)?([A-Z][^:*]{2,60})(?:\*\*)?:?\s*(?:\*\*)?\s*(.*)$/.exec(line);
    if (m) {
      if (head) out.set(head, body.join("\n"));
      head = m[1]!.trim();
      body = m[2] ? [m[2]] : [];
    } else body.push(line);
  }
  if (head) out.set(head, body.join("\n"));
  return out;
}

/** The top-level items of a section: its bullets, else its non-empty lines. */
function peerItems(text: string): string[] {
  const lines = text.split("\n");
  const top = lines.filter((l) => /^\s{0,3}[-*] /.test(l)).map((l) => l.replace(/^\s*[-*] /, "").trim());
  return top.length ? top : lines.map((l) => l.trim()).filter(Boolean);
}

function f1(tp: number, fp: number, found: number, expected: number): number {
  const precision = tp + fp ? tp / (tp + fp) : 1;
  const recall = expected ? found / expected : 1;
  return precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
}

function reportedErrors(t: Record<string, unknown>, md: string | undefined): string[] {
  if (Array.isArray(t.errors))
    return t.errors
      .filter((e) => !(isObj(e) && (e.resolved === true || e.status === "resolved")))
      .map((e) => (isObj(e) ? [e.tool, e.target, e.message, e.command].filter(Boolean).join(" ") : String(e)));
  return bulletsOf(md ?? "").filter((b) => !/^\(?\s*(none|no )/i.test(b));
}

function reportedFiles(t: Record<string, unknown>, md: string | undefined): Reading["files"] {
  const gone = /delet|remov|moved|\brm\b|renamed to|→/i;
  if (Array.isArray(t.files))
    return t.files.filter(isObj).map((f) => ({
      path: str(f.path),
      deleted: gone.test(JSON.stringify({ ...f, path: undefined })),
    }));
  return bulletsOf(md ?? "")
    .map((b) => ({ path: /`([^`]+)`/.exec(b)?.[1] ?? "", deleted: gone.test(b.replace(/`[^`]+`/, "")) }))
    .filter((f) => f.path);
}

function bulletsOf(text: string): string[] {
  return text
    .split("\n")
    .filter((l) => /^\s*[-*] /.test(l))
    .map((l) => l.replace(/^\s*[-*] /, "").trim());
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function str(v: unknown): string {
  return typeof v === "string" ? v : "";
}

function num(s: string): number {
  return Number(s.replace(/,/g, ""));
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
