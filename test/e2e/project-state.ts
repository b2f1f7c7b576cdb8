/** What ctx wrote under a sandbox project's `.ctx/`, as the e2e tests read it while the client runs. */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { waitUntil } from "./respawn-harness.ts";

/**
 * The compaction's event (`.ctx/events/session-compressed-*`), polled for up to 10 s until it holds its
 * `tokens_after` (track fills them in at the first usage after the compaction); as last read, or undefined.
 */
export async function compactionEvent(project: string): Promise<Record<string, unknown> | undefined> {
  const events = join(project, ".ctx", "events");
  let event: Record<string, unknown> | undefined;
  for (let i = 0; i < 100 && !event?.tokens_after; i++) {
    const name = existsSync(events) ? readdirSync(events).find((n) => n.startsWith("session-compressed-")) : undefined;
    if (name) event = JSON.parse(readFileSync(join(events, name), "utf8"));
    if (!event?.tokens_after) await Bun.sleep(100);
  }
  return event;
}

/**
 * The hook event ctx track recorded last for each session of the project (its state's `last_event`),
 * sorted: `["SessionEnd", "SessionStart"]` once /clear has ended one session and started the next.
 */
export function lastHookEvents(project: string): string[] {
  const dir = join(project, ".ctx", "state", "sessions");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((n) => /^[0-9a-f-]{36}\.json$/.test(n))
    .map((n) => {
      try {
        return String(JSON.parse(readFileSync(join(dir, n), "utf8")).last_event ?? "");
      } catch {
        return "";
      }
    })
    .sort();
}

/**
 * Waits (up to 20 s) until {@link lastHookEvents} reads `events` (in any order): the hooks of a finished turn
 * (`Stop`) or of a /clear (`SessionEnd`, `SessionStart`) have run. In place of a fixed sleep after the screen.
 */
export async function hooksRan(project: string, events: string[]): Promise<void> {
  const want = [...events].sort().join(", ");
  await waitUntil(
    () => lastHookEvents(project).join(", ") === want,
    20_000,
    () => `the sessions' last hook events: ${lastHookEvents(project).join(", ")}; waited for ${want}`,
  );
}
