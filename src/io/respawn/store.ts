/**
 * Where the supervisor's state goes and where it reads the hooks' state:
 * `<root>/state/respawn/<name>.json` (its record and recent events), and
 * `<root>/state/context-usage.json`. (The `respawn` field of the per-user index
 * entry is written by `setRespawn` in io/session/index.ts.)
 */
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { RespawnState } from "../../core/respawn/types.ts";
import { isValidSessionId } from "../../core/session-id.ts";
import { ensureDirUnder, readJsonFile, writeJsonAtomic } from "../fs/fsx.ts";
import { readState } from "../fs/state-file.ts";
import { asObject } from "../../core/json.ts";

/** One recorded event. */
export interface RespawnLogEntry {
  /** ISO-8601 time. */
  at: string;
  /** Event name (`idle`, `cycle_start`, `step`, `cycle_done`, `brake`, `halted`, …). */
  event: string;
  /** Free text. */
  detail?: string;
}

/** The supervisor's record, `<root>/state/respawn/<name>.json`. */
export interface RespawnRecord {
  /** Format version. */
  version: 1;
  /** Supervisor name (the tmux session name for `start`). */
  name: string;
  /** The supervisor's pid. */
  pid: number;
  /** The supervised pane (`%N`). */
  target: string;
  /** Project directory and state root. */
  project: string;
  root: string;
  /** The phase (watching, confirming_idle, ai_checking, idle, cycling, halted, stopped). */
  phase: string;
  /** Cycles finished. */
  cycles: number;
  /** Why it halted or stopped, else null. */
  reason: string | null;
  /** The brake holding cycles back, else null. */
  brake: string | null;
  /** The Claude Code session currently supervised, when known. */
  session_id: string | null;
  /** The latest used %, when known. */
  used_pct: number | null;
  /** Start and last update, ISO-8601. */
  started_at: string;
  updated_at: string;
  /** The newest events, oldest first (at most 50). */
  events: RespawnLogEntry[];
  /** The machine's full state, for debugging. */
  machine: RespawnState;
}

/** What the hooks last said about the newest session of the project. */
export interface HookReading {
  session_id: string;
  /** used_pct when the session has usage (used_tokens > 0), else null. */
  used_pct: number | null;
  /** updated_at in ms. */
  updated_ms: number;
  /** last_stop_at in ms, or null. */
  last_stop_ms: number | null;
  /** The session's transcript, when known. */
  transcript_path: string | null;
}

/** Names are file names: the session-id alphabet only. */
export const isValidName = isValidSessionId;

/** The record file of supervisor `name`. */
export function recordPath(root: string, name: string): string {
  return join(root, "state", "respawn", `${name}.json`);
}

/** Writes the record atomically. */
export function writeRecord(rec: RespawnRecord): void {
  ensureDirUnder(rec.root, "state/respawn");
  writeJsonAtomic(recordPath(rec.root, rec.name), rec);
}

/** Reads a record, or undefined. */
export function readRecord(root: string, name: string): RespawnRecord | undefined {
  return readState(recordPath(root, name), parseRecord, Date.now(), { maxBytes: 4 * 1024 * 1024 });
}

/**
 * A parsed record file as a record: any JSON object is one (a field it lacks reads as absent),
 * with the fields its readers rely on narrowed: `phase` a string ("" when none), `pid` a
 * positive integer (0 when none), `events` only the well-formed ones. Undefined for a non-object.
 */
export function parseRecord(value: unknown): RespawnRecord | undefined {
  const v = asObject(value);
  if (!v) return undefined;
  const events = (Array.isArray(v.events) ? v.events : []).flatMap((x): RespawnLogEntry[] => {
    const ev = asObject(x);
    if (typeof ev?.event !== "string") return [];
    return [
      { at: String(ev.at ?? ""), event: ev.event, ...(typeof ev.detail === "string" ? { detail: ev.detail } : {}) },
    ];
  });
  const pid = typeof v.pid === "number" && Number.isInteger(v.pid) && v.pid > 0 ? v.pid : 0;
  return { ...v, phase: typeof v.phase === "string" ? v.phase : "", pid, events } as RespawnRecord;
}

/** Names of every supervisor record under `root`. */
export function listRecords(root: string): string[] {
  try {
    return readdirSync(join(root, "state", "respawn"))
      .filter((f) => f.endsWith(".json"))
      .map((f) => f.slice(0, -5))
      .filter(isValidName);
  } catch {
    return [];
  }
}

/** The newest session's reading from `<root>/state/context-usage.json` (written by `ctx track`). */
export function readHookState(root: string): HookReading | undefined {
  const r = readJsonFile<Record<string, unknown>>(join(root, "state", "context-usage.json"), {
    maxBytes: 4 * 1024 * 1024,
  });
  return r.status === "ok" ? hookReading(r.value) : undefined;
}

/** The reading in a session state (the layout of `state/sessions/<sid>.json` and its copy `context-usage.json`), or undefined. */
export function hookReading(value: unknown): HookReading | undefined {
  const v = asObject(value);
  if (!v || !isValidSessionId(v.session_id)) return undefined;
  const tokens = typeof v.used_tokens === "number" ? v.used_tokens : 0;
  const pct = typeof v.used_pct === "number" && Number.isFinite(v.used_pct) && tokens > 0 ? v.used_pct : null;
  const updated = typeof v.updated_at === "string" ? Date.parse(v.updated_at) : NaN;
  const stop = typeof v.last_stop_at === "string" ? Date.parse(v.last_stop_at) : NaN;
  return {
    session_id: v.session_id,
    used_pct: pct,
    updated_ms: Number.isFinite(updated) ? updated : 0,
    last_stop_ms: Number.isFinite(stop) ? stop : null,
    transcript_path:
      typeof v.transcript_path === "string" && v.transcript_path.startsWith("/") ? v.transcript_path : null,
  };
}
