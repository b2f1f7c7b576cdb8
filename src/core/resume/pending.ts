/**
 * The respawn hand-over file `<root>/state/respawn-pending.json`. The respawn
 * supervisor writes it (atomically) right before it sends `/clear` or starts a
 * new client; the next SessionStart of the project injects the named summary
 * and records itself in `consumed_by`.
 */

/** The pending file. */
export interface RespawnPending {
  /** Format version, 1. */
  version: 1;
  /** Absolute path of the summary to inject. */
  summary_path: string;
  /** When the supervisor wrote it, ISO-8601. */
  created_at: string;
  /** The session id that consumed it; null while pending. */
  consumed_by: string | null;
  /** When it was consumed, ISO-8601; null while pending. */
  consumed_at?: string | null;
}

/** Validates a parsed pending file; undefined when it is not one. */
export function parsePending(value: unknown): RespawnPending | undefined {
  if (!value || typeof value !== "object") return undefined;
  const r = value as Record<string, unknown>;
  if (typeof r.summary_path !== "string" || !r.summary_path.startsWith("/") || r.summary_path.includes("\0"))
    return undefined;
  const created = typeof r.created_at === "string" ? r.created_at : "";
  const by = typeof r.consumed_by === "string" && r.consumed_by !== "" ? r.consumed_by : null;
  const at = typeof r.consumed_at === "string" ? r.consumed_at : null;
  return { version: 1, summary_path: r.summary_path, created_at: created, consumed_by: by, consumed_at: at };
}

/**
 * True when the pending summary is still to be injected: not consumed, and not
 * older than `maxAgeMs` (a supervisor that died long ago must not hijack a later session),
 * and not stamped in the future (a skewed clock or a planted file).
 */
export function isPendingLive(p: RespawnPending, nowMs: number, maxAgeMs: number | false): boolean {
  if (p.consumed_by !== null) return false;
  const created = Date.parse(p.created_at);
  // A hand-over from the future (a skewed clock, or a planted file) is stale, never "fresh forever".
  if (!Number.isFinite(created) || created > nowMs) return false;
  return maxAgeMs === false || nowMs - created <= maxAgeMs;
}

/** The pending file marked consumed by `sessionId`. */
export function consumePending(p: RespawnPending, sessionId: string, nowMs: number): RespawnPending {
  return { ...p, consumed_by: sessionId, consumed_at: new Date(nowMs).toISOString() };
}
