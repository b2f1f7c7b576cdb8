/**
 * The consumed-summaries ledger, `<root>/state/resume-ledger.json`: which
 * summary a session has already been given. It is the loop guard of
 * `ctx resume --hook`: a summary is injected at most once.
 */

/** How a summary was consumed. */
export type ConsumedVia = "startup" | "resume" | "clear" | "compact" | "pending" | "cli";

/** One consumed summary. */
export interface ConsumedEntry {
  /** The session that received it; null when `ctx resume` launched a session whose id is not known yet. */
  session_id: string | null;
  /** How it was delivered: a SessionStart source, `pending` (respawn) or `cli` (`ctx resume`). */
  via: ConsumedVia;
  /** When, ISO-8601. */
  at: string;
  /** The chain (task id) that consumed it, when known. */
  task_id?: string;
}

/** The ledger file. */
export interface Ledger {
  /** Format version, 1. */
  version: 1;
  /** Summary file name (not path: the project may move) → who consumed it. */
  consumed: Record<string, ConsumedEntry>;
}

/** Entries kept at most; the oldest are dropped beyond this. */
export const LEDGER_MAX_ENTRIES = 500;

/** An empty ledger. */
export function emptyLedger(): Ledger {
  return { version: 1, consumed: {} };
}

/** Validates a parsed ledger file; anything malformed gives an empty ledger (entries that are fine are kept). */
export function parseLedger(value: unknown): Ledger {
  const out = emptyLedger();
  if (!value || typeof value !== "object") return out;
  const consumed = (value as { consumed?: unknown }).consumed;
  if (!consumed || typeof consumed !== "object" || Array.isArray(consumed)) return out;
  for (const [name, e] of Object.entries(consumed as Record<string, unknown>)) {
    if (!e || typeof e !== "object") continue;
    const r = e as Record<string, unknown>;
    const sid = typeof r.session_id === "string" ? r.session_id : null;
    const at = typeof r.at === "string" ? r.at : "";
    const via = typeof r.via === "string" ? (r.via as ConsumedVia) : "clear";
    out.consumed[name] = { session_id: sid, via, at, ...(typeof r.task_id === "string" ? { task_id: r.task_id } : {}) };
  }
  return out;
}

/** True when the summary `name` has been consumed. */
export function isConsumed(ledger: Ledger, name: string): boolean {
  return Object.hasOwn(ledger.consumed, name);
}

/** A new ledger with `name` marked consumed (the oldest entries beyond the cap dropped). */
export function markConsumed(ledger: Ledger, name: string, entry: ConsumedEntry): Ledger {
  const consumed = { ...ledger.consumed, [name]: entry };
  const names = Object.keys(consumed);
  if (names.length > LEDGER_MAX_ENTRIES) {
    names.sort((a, b) => (consumed[a]!.at < consumed[b]!.at ? -1 : 1));
    for (const old of names.slice(0, names.length - LEDGER_MAX_ENTRIES)) delete consumed[old];
  }
  return { version: 1, consumed };
}
