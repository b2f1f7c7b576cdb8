/**
 * A hook payload or transcript line no client's adapter claims is never read as another client's:
 * it is reported instead, under `CTX_DEBUG` and in `unclaimed.log`, which `ctx doctor` shows.
 * The log's module loads only when there is something to report (the hooks' hot path stays light).
 */
import { unclaimedHook } from "../core/agents/index.ts";
import { debug, type Deps } from "../core/deps.ts";

/** Reports `what` from `command`: to stderr under CTX_DEBUG, and to the error log. Never throws. */
export async function reportUnclaimed(deps: Deps, command: string, what: string): Promise<void> {
  debug(deps, `${command}: ${what}`);
  await import("./error-log.ts").then((m) => m.recordUnclaimed(deps, command, what)).catch(() => {});
}

/** Reports a hook payload that names an event no client claims; nothing for any other payload. */
export async function reportUnclaimedHook(deps: Deps, command: string, input: Record<string, unknown>): Promise<void> {
  const what = unclaimedHook(input);
  if (what) await reportUnclaimed(deps, command, what);
}
