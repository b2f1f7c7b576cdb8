/** The label of an indexed session as `ctx status` and `ctx metrics` show it (docs/status.md, SESSION). */
import type { Env } from "../../core/deps.ts";
import type { IndexEntry } from "../../core/status/entry.ts";
import { readBridge } from "./bridge.ts";

/**
 * The label of a session before its own status line ran: the one it continues (a /clear keeps the
 * pane), else its supervisor's name (`ctx respawn`), else undefined (the short id stays).
 */
export function labelBefore(env: Env, e: IndexEntry): string | undefined {
  const before = e.previous_session_id ? readBridge(env, e.previous_session_id)?.label : undefined;
  if (before) return before;
  const r = e.respawn;
  const name = r && typeof r === "object" ? (r as Record<string, unknown>).name : undefined;
  return typeof name === "string" && /^[A-Za-z0-9_-]{1,64}$/.test(name) ? name : undefined;
}
