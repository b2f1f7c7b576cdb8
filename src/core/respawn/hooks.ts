/**
 * What the hooks' state says about the supervised session (`ctx track` writes
 * `state/sessions/<sid>.json`), and the events it gives the machine: a Stop
 * hook newer than the last one seen, and a usage reading when anything behind
 * it changed. The driver reads the files; the decisions are here.
 */
import { asObject } from "../json.ts";
import { isValidSessionId } from "../session-id.ts";
import type { RespawnEvent } from "./types.ts";

/** What the hooks last said about one session. */
export interface HookReading {
  /** The session. */
  session_id: string;
  /** used_pct when the session has usage (used_tokens > 0), else null. */
  used_pct: number | null;
  /** updated_at in ms. */
  updated_ms: number;
  /** last_stop_at in ms, or null. */
  last_stop_ms: number | null;
  /** The session's transcript, when known. */
  transcript_path: string | null;
  /** At the usage limit (`limit`, `limit_at`, `resets_at` of the state, written on StopFailure), else null. */
  limit?: { message: string; at_ms: number; resets_ms: number | null };
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
    ...limitOf(v),
  };
}

/**
 * The used % the supervisor acts on: the transcript's figure when it has one
 * (it is the freshest, the hooks may not have read it yet), else the hooks'.
 */
export function usagePct(fromTranscript: number | undefined, fromHooks: number | null): number | null {
  return fromTranscript !== undefined && fromTranscript > 0 ? fromTranscript : fromHooks;
}

/** What the driver remembers of the hooks' state between two polls. */
export interface HookMemory {
  /** The session supervised now, when known. */
  sessionId: string | null;
  /** The newest Stop hook already fed to the machine (ms), or null. */
  lastStop: number | null;
  /** What the last usage reading was made of (session, figure, times, transcript stamp). */
  usageKey: string;
  /** The `limit_at` of the last limit fed to the machine (ms), or null. */
  limitAt: number | null;
}

/** The memory a supervisor starts with: signals from before it started are spent, the first reading counts. */
export function startMemory(h: HookReading | undefined): HookMemory {
  // A limit the session is at when the supervisor starts is fed too: it still has to be waited out.
  return { sessionId: h?.session_id ?? null, lastStop: h?.last_stop_ms ?? null, usageKey: "", limitAt: null };
}

/** A file's change key (size and mtime) and its mtime in ms. */
export interface FileStamp {
  /** Changes whenever the file does. */
  key: string;
  /** Its mtime in ms. */
  mtime: number;
}

/**
 * Compares a fresh reading with the memory: a Stop hook that is new, then a
 * usage reading when the session, its figure, its state file or its
 * transcript changed. `transcriptPct` is asked only then (reading a
 * transcript costs); a reading without any figure gives no usage event.
 */
export function observeHooks(
  memory: HookMemory,
  h: HookReading,
  transcript: FileStamp | undefined,
  transcriptPct: () => number | undefined,
): { memory: HookMemory; events: RespawnEvent[] } {
  const events: RespawnEvent[] = [];
  const next = { ...memory, sessionId: h.session_id };
  if (h.last_stop_ms !== null && h.last_stop_ms !== memory.lastStop) {
    next.lastStop = h.last_stop_ms;
    events.push({ type: "stop_hook", at: h.last_stop_ms });
  }
  if (h.limit && h.limit.at_ms !== memory.limitAt) {
    next.limitAt = h.limit.at_ms;
    events.push({ type: "limit", message: h.limit.message, resetsAt: h.limit.resets_ms });
  }
  const key = `${h.session_id} ${h.used_pct} ${h.updated_ms} ${transcript?.key ?? ""}`;
  if (key === memory.usageKey) return { memory: next, events };
  next.usageKey = key;
  const pct = usagePct(h.transcript_path ? transcriptPct() : undefined, h.used_pct);
  if (pct !== null) events.push({ type: "usage", pct, at: Math.max(h.updated_ms, transcript?.mtime ?? 0) });
  return { memory: next, events };
}

// --- internal ---

function limitOf(v: Record<string, unknown>): Pick<HookReading, "limit"> {
  const at = typeof v.limit_at === "string" ? Date.parse(v.limit_at) : NaN;
  if (typeof v.limit !== "string" || !v.limit || !Number.isFinite(at)) return {};
  const resets = typeof v.resets_at === "string" ? Date.parse(v.resets_at) : NaN;
  return { limit: { message: v.limit, at_ms: at, resets_ms: Number.isFinite(resets) ? resets : null } };
}
