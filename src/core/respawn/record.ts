/**
 * The supervisor's record, `<root>/state/respawn/<name>.json`, and the
 * `respawn` field of the supervised session's per-user index entry, built
 * from the machine's state (docs/respawn.md, "State for `ctx status`").
 * Writing them is `io/respawn/store.ts`'s job.
 */
import { asObject } from "../json.ts";
import type { RespawnState } from "./types.ts";

/** The record keeps this many of the newest events. */
export const MAX_EVENTS = 50;

/** The record is written at least this often, even when nothing changed. */
export const HEARTBEAT_MS = 10_000;

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

/** Who the supervisor is: the record's fields that never change. */
export type Supervisor = Pick<RespawnRecord, "name" | "pid" | "target" | "project" | "root" | "started_at">;

/** The `respawn` field of the supervised session's per-user index entry. */
export interface IndexRespawn {
  /** The supervisor's name. */
  name: string;
  /** Its phase. */
  state: string;
  /** Cycles finished. */
  cycles: number;
  /** Why it halted or stopped, else null. */
  reason: string | null;
  /** Its record, `<root>/state/respawn/<name>.json`. */
  state_path: string;
  /** When the record was written, ISO-8601. */
  updated_at: string;
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

/** `events` with `entry` added, keeping the newest MAX_EVENTS. */
export function appendEvent(events: RespawnLogEntry[], entry: RespawnLogEntry): RespawnLogEntry[] {
  return [...events, entry].slice(-MAX_EVENTS);
}

/** The record of the supervisor `who` for the machine's state `s`, written at `updatedAt` (ISO-8601). */
export function buildRecord(
  who: Supervisor,
  s: RespawnState,
  sessionId: string | null,
  events: RespawnLogEntry[],
  updatedAt: string,
): RespawnRecord {
  const { name, pid, target, project, root } = who;
  return {
    version: 1,
    name,
    pid,
    target,
    project,
    root,
    phase: s.phase,
    cycles: s.cycles,
    reason: s.reason,
    brake: s.brake,
    session_id: sessionId,
    used_pct: s.usage?.pct ?? null,
    started_at: who.started_at,
    updated_at: updatedAt,
    events,
    machine: s,
  };
}

/** The index entry's `respawn` field for a record stored at `statePath`. */
export function indexRespawn(rec: RespawnRecord, statePath: string): IndexRespawn {
  const { name, phase: state, cycles, reason, updated_at } = rec;
  return { name, state, cycles, reason, state_path: statePath, updated_at };
}

/** True when a transition changed what `ctx status` shows (the phase or the cycles): the record is written at once. */
export function statusChanged(prev: RespawnState, next: RespawnState): boolean {
  return next.phase !== prev.phase || next.cycles !== prev.cycles;
}

/** True when the record is due: forced, something changed, or the heartbeat passed. */
export function recordDue(force: boolean, dirty: boolean, now: number, lastWrite: number): boolean {
  return force || dirty || now - lastWrite >= HEARTBEAT_MS;
}
