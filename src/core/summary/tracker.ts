/**
 * Work tracked with a command-line tracker instead of the client's task tools:
 * beads (`bd`), GitHub issues (`gh issue`), taskwarrior (`task`), todo.txt
 * (`todo.sh`). The summary shows the open items of the session's last
 * successful listing, minus those closed after it, and how to list them now;
 * they never become client tasks (a resumed agent would re-create them). Pure.
 */
import { shellParts } from "./shell-parse.ts";
import { oneLine } from "./ring.ts";

/** What the summary says about a command-line tracker the session used. */
export interface TrackerState {
  /** `bd`, `gh`, `task`, `todo.sh`. */
  tool: string;
  /** The command that lists the open items now. */
  listHint: string;
  /** The session's last successful listing command (one line), or null when it never listed. */
  listedBy: string | null;
  /** The open items that listing printed (one line each, deduplicated by id), minus those closed after it. */
  items: string[];
  /** Ids closed after that listing. */
  closedSince: string[];
  /** Items created after that listing. */
  createdSince: number;
  /** Those created items, one line each (`spotter-fum.5: its title`), minus those closed since; absent in older twins. */
  created?: string[];
}

interface Tracker {
  tool: string;
  listHint: string;
  /** A command that keeps tasks in the tracker (words joined by spaces); reading one, `gh issue view`, is not. */
  uses: RegExp;
  lists: RegExp;
  creates: RegExp;
  /** The command that closes items, and the index of the first id among its words (the ids run to the first flag). */
  closes: RegExp;
  closeAt: number;
  /** An open item's line in a listing; group 1 its id. */
  item: RegExp;
  /** What a create prints: group 1 the new item's id. */
  createdId?: RegExp;
}

const TRACKERS: Tracker[] = [
  {
    tool: "bd",
    listHint: "bd list --status=open",
    uses: /^bd\s+(?:list|ready|create|new|close|update|reopen|edit|dep|blocked)\b/, // not `bd sync`, `bd show`
    lists: /^bd\s+(?:list|ready)\b/,
    creates: /^bd\s+(?:create|new)\b/,
    closes: /^bd\s+close\s/,
    closeAt: 2,
    item: /^(?:[○◐]\s+|\d+\.\s+\[[^\]]*\]\s+\[\w+\]\s+)([a-z0-9]+-[\w.]+?):?\s/,
    createdId: /Created issue:\s*([a-z0-9]+-[\w.]+)/,
  },
  {
    tool: "gh",
    listHint: "gh issue list",
    uses: /^gh\s+issue\s+(?:list|create|close|reopen|edit)\b/,
    lists: /^gh\s+issue\s+list\b/,
    creates: /^gh\s+issue\s+create\b/,
    closes: /^gh\s+issue\s+close\s/,
    closeAt: 3,
    item: /^#?(\d+)\s+(?:OPEN\s+)?\S/,
    createdId: /\/issues\/(\d+)\b/,
  },
  {
    tool: "task",
    listHint: "task next",
    uses: /^task\s/,
    lists: /^task(?:\s+\S+)*\s+(?:list|next|ready|active)\b/,
    creates: /^task\s+add\b/,
    closes: /^task\s+[\d,]+\s+done\b/,
    closeAt: 1,
    item: /^\s*(\d+)\s+\S/,
    createdId: /Created task (\d+)/,
  },
  {
    tool: "todo.sh",
    listHint: "todo.sh ls",
    uses: /^todo(?:\.sh)?\s/,
    lists: /^todo(?:\.sh)?\s+(?:ls|list)\b/,
    creates: /^todo(?:\.sh)?\s+(?:add|a)\b/,
    closes: /^todo(?:\.sh)?\s+do\s/,
    closeAt: 2,
    item: /^(\d+)\s+\S/,
  },
];

/** A quick test before parsing: the command names one of the trackers. */
const MENTIONS = /(?:^|[\s;&|(])(?:bd|gh|task|todo(?:\.sh)?)\s/;

/** Most items kept from one listing. */
const MAX_ITEMS = 40;

/** Notes a successful shell command: a tracker's listing (its output), a close or a create. `state` is updated in place or made. */
export function onTrackerCommand(state: TrackerState | null, command: string, output: string): TrackerState | null {
  if (!MENTIONS.test(command)) return state;
  const cmds = shellParts(command).map((p) => p.words.filter((w) => !/^[A-Za-z_]\w*=/.test(w)));
  let s = state;
  for (const t of TRACKERS) {
    const mine = cmds.filter((w) => t.uses.test(w.join(" ")));
    if (mine.length === 0) continue;
    if (!s || s.tool !== t.tool)
      s = {
        tool: t.tool,
        listHint: t.listHint,
        listedBy: null,
        items: [],
        closedSince: [],
        createdSince: 0,
        created: [],
      };
    if (mine.some((w) => t.lists.test(w.join(" ")))) {
      // Listings in a row (nothing closed or created between them) add up: `bd ready`, then `bd list --status=in_progress`.
      const inARow = s.listedBy !== null && s.closedSince.length === 0 && s.createdSince === 0;
      const items = openItems(t, output, inARow ? s.items : []);
      s.listedBy = oneLine(inARow ? `${s.listedBy}; ${command}` : command, 160);
      s.items = items;
      s.closedSince = [];
      s.createdSince = 0;
      s.created = [];
    }
    for (const words of mine) {
      const c = words.join(" ");
      for (const id of t.closes.test(c) ? closedIds(words.slice(t.closeAt)) : []) {
        if (!s.closedSince.includes(id)) s.closedSince.push(id);
        s.items = s.items.filter((line) => idOf(t, line) !== id);
        s.created = (s.created ?? []).filter((line) => !line.startsWith(`${id}:`) && line !== id);
      }
      if (t.creates.test(c)) {
        s.createdSince += 1;
        const line = createdLine(t, words, output);
        if (line && (s.created ?? []).length < MAX_ITEMS) s.created = [...(s.created ?? []), line];
      }
    }
  }
  return s;
}

/**
 * The chain's tracker state: this session's when it listed, else the previous
 * one's listing minus what this session closed (counts carried forward).
 */
export function mergeTracker(prev: TrackerState | null, cur: TrackerState | null): TrackerState | null {
  if (!cur) return prev;
  if (!prev || cur.listedBy !== null || prev.tool !== cur.tool) return cur;
  const t = TRACKERS.find((x) => x.tool === prev.tool);
  const closed = new Set(cur.closedSince);
  return {
    ...prev,
    items: prev.items.filter((line) => !t || !closed.has(idOf(t, line) ?? "")),
    closedSince: [...new Set([...prev.closedSince, ...cur.closedSince])],
    createdSince: prev.createdSince + cur.createdSince,
    created: [...(prev.created ?? []).filter((line) => !closed.has(line.split(":")[0]!)), ...(cur.created ?? [])],
  };
}

/** A tracker state read back from a twin, or null when it is not one (fields checked, not trusted). */
export function parseTracker(value: unknown): TrackerState | null {
  if (!value || typeof value !== "object") return null;
  const v = value as Record<string, unknown>;
  const t = TRACKERS.find((x) => x.tool === v.tool);
  if (!t) return null;
  const strs = (x: unknown) =>
    Array.isArray(x) ? x.filter((s): s is string => typeof s === "string").map((s) => oneLine(s, 160)) : [];
  return {
    tool: t.tool,
    listHint: t.listHint,
    listedBy: typeof v.listedBy === "string" ? oneLine(v.listedBy, 160) : null,
    items: strs(v.items).slice(0, MAX_ITEMS),
    closedSince: strs(v.closedSince).slice(0, MAX_ITEMS),
    createdSince: typeof v.createdSince === "number" && v.createdSince >= 0 ? Math.floor(v.createdSince) : 0,
    created: strs(v.created).slice(0, MAX_ITEMS),
  };
}

// --- internal ---

/** The item a create made, as `id: title` (the title from `--title`/`-t`, else from its output), or null. */
function createdLine(t: Tracker, words: string[], output: string): string | null {
  const id = t.createdId?.exec(output)?.[1];
  if (!id) return null;
  const flag = words.findIndex((w) => w === "--title" || w === "-t" || w.startsWith("--title="));
  const fromFlag =
    flag < 0 ? "" : words[flag]!.startsWith("--title=") ? words[flag]!.slice(8) : (words[flag + 1] ?? "");
  const fromOutput = /^\s*Title:\s*(.+)$/m.exec(output)?.[1] ?? "";
  const title = oneLine(fromFlag || fromOutput, 120);
  return title ? `${id}: ${title}` : id;
}

/** The ids at the start of `words`, up to the first flag or word that is not an id (`3,4` gives 3 and 4). */
function closedIds(words: string[]): string[] {
  const end = words.findIndex((w) => !/^#?[\w.,-]+$/.test(w) || w.startsWith("-"));
  return words
    .slice(0, end < 0 ? words.length : end)
    .flatMap((w) => w.split(","))
    .map((w) => w.replace(/^#/, ""))
    .filter((w) => w !== "" && w !== "done");
}

/** The open items of a listing's output, after `before` (deduplicated by id). */
function openItems(t: Tracker, output: string, before: string[]): string[] {
  const out = [...before];
  const seen = new Set(out.map((line) => idOf(t, line)));
  for (const raw of output.split("\n")) {
    const line = raw.trim();
    const id = idOf(t, line);
    if (id === null || seen.has(id)) continue;
    seen.add(id);
    out.push(oneLine(line, 160));
    if (out.length >= MAX_ITEMS) break;
  }
  return out;
}

function idOf(t: Tracker, line: string): string | null {
  return t.item.exec(line)?.[1] ?? null;
}
