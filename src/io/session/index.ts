/**
 * Reads the per-user session index (`${XDG_STATE_HOME:-~/.local/state}/ctx/sessions/*.json`)
 * for `ctx status`. Never takes a lock: a file caught mid-rename is simply skipped this time.
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { INDEX_DIR, layout, userLayout } from "../../core/layout.ts";
import { fileIn } from "../../core/paths.ts";
import { isValidSessionId } from "../../core/session-id.ts";
import { parseIndexEntry, type IndexEntry } from "../../core/status/entry.ts";
import type { Supervisor, SupervisorEvent } from "../../core/status/rows.ts";
import { mtimeMs, readJsonFile, realDirsUnder } from "../fs/fsx.ts";
import { FUTURE_SLACK_MS, plausibleMs } from "../../core/plausible.ts";
import { pidAlive } from "../fs/lock.ts";

/** One indexed session, with what its own state file adds. */
export interface IndexedSession {
  entry: IndexEntry;
  /** The session's state says it is over: SessionEnd seen, or a /clear replaced it. */
  ended: boolean;
  /** The respawn supervisor's record, when the entry names one. */
  supervisor?: Supervisor;
}

/**
 * Every readable entry of the index; lock files, temp files and broken entries are skipped.
 * An `updated_at` in the future (a clock that was ahead) counts as now at most: it gives way
 * to the entry file's mtime, and when that is in the future too the entry has no update time
 * (so it shows as stale, never as "age 0" forever).
 */
export function readIndex(env: Record<string, string | undefined>, nowMs: number = Date.now()): IndexedSession[] {
  const user = userLayout(env);
  const dir = user.index;
  if (!realDirsUnder(user.dir, INDEX_DIR)) return []; // a symlinked index is not ours to read
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: IndexedSession[] = [];
  for (const name of names) {
    if (!name.endsWith(".json")) continue;
    const sid = name.slice(0, -".json".length);
    if (!isValidSessionId(sid)) continue;
    const r = readJsonFile<unknown>(join(dir, name), { maxBytes: 256 * 1024 });
    const entry = r.status === "ok" ? parseIndexEntry(r.value, sid) : undefined;
    if (entry && entry.updated_ms > nowMs + FUTURE_SLACK_MS)
      entry.updated_ms = plausibleMs(nowMs, mtimeMs(join(dir, name))) || Number.NaN;
    else if (entry) entry.updated_ms = Math.min(entry.updated_ms, nowMs);
    if (entry) out.push({ entry, ended: sessionEnded(entry), supervisor: supervisorOf(entry) });
  }
  return out;
}

// --- internal ---

/** Reads the state file the entry points to, only when it is `<root>/state/sessions/<sid>.json` (never an arbitrary path). */
function sessionEnded(e: IndexEntry): boolean {
  if (!e.root.startsWith("/") || fileIn(layout(e.root).sessionsState, e.state_path) !== `${e.session_id}.json`)
    return false;
  const r = readJsonFile<Record<string, unknown>>(e.state_path, { maxBytes: 1024 * 1024 });
  if (r.status !== "ok" || !r.value || typeof r.value !== "object") return false;
  const next = r.value.next_session_id;
  return r.value.last_event === "SessionEnd" || (typeof next === "string" && next !== "");
}

/** How many of a supervisor's events `ctx status` shows. */
const RECENT_EVENTS = 5;

/**
 * The supervisor's record the entry's `respawn.state_path` names, only when
 * it is `<root>/state/respawn/<name>.json` of the entry's root (never an arbitrary path): whether its
 * process lives, and its recent events.
 */
function supervisorOf(e: IndexEntry): Supervisor | undefined {
  const r = e.respawn;
  const path = r && typeof r === "object" ? (r as Record<string, unknown>).state_path : undefined;
  const name = e.root.startsWith("/") ? fileIn(layout(e.root).respawn, path) : undefined;
  if (!name || !/^[A-Za-z0-9_-][A-Za-z0-9_.-]*\.json$/.test(name)) return undefined;
  const rec = readJsonFile<Record<string, unknown>>(path as string, { maxBytes: 4 * 1024 * 1024 });
  if (rec.status !== "ok" || !rec.value || typeof rec.value !== "object") return undefined;
  const v = rec.value;
  const running = v.phase !== "stopped";
  const events = (Array.isArray(v.events) ? v.events : []).slice(-RECENT_EVENTS).flatMap((x): SupervisorEvent[] => {
    if (!x || typeof x !== "object") return [];
    const ev = x as Record<string, unknown>;
    return typeof ev.event === "string"
      ? [{ at: String(ev.at ?? ""), event: ev.event, detail: typeof ev.detail === "string" ? ev.detail : null }]
      : [];
  });
  return {
    alive: !running || (typeof v.pid === "number" && Number.isInteger(v.pid) && v.pid > 0 && pidAlive(v.pid)),
    events,
  };
}
