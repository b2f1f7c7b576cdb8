/**
 * State the fuzzer plants before a run, so mutated inputs meet real state:
 * bridge files that are fresh, stale, from the future or corrupt, and a
 * handoff summary for the resume hook (recorded as finalize records the ones it writes).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { writeOwnSummary } from "../helpers/written.ts";
import type { Sandbox } from "./sandbox.ts";

/** The session ids the fuzzer's seeds are pointed at. */
export const FUZZ_SESSIONS = ["fz-warn", "fz-crit", "fz-ok", "fz-future", "fz-stale", "fz-corrupt", "fz-none"];

/** Writes the bridges and a summary; `nowMs` is the run's clock. */
export function plantState(sb: Sandbox, nowMs: number): void {
  const s = nowMs / 1000;
  const bridge = (sid: string, used: number, ts: number) =>
    writeFileSync(
      join(sb.env.TMPDIR!, `claude-ctx-${sid}.json`),
      JSON.stringify({
        session_id: sid,
        used_pct: used,
        remaining_percentage: 100 - used,
        timestamp: ts,
        used_tokens: used * 2000,
        context_window_size: 200000,
        model: "claude-sonnet-4-5",
        cwd: sb.project,
        transcript_path: sb.transcript,
      }),
    );
  bridge("fz-warn", 66, s);
  bridge("fz-crit", 80, s);
  bridge("fz-ok", 10, s);
  bridge("fz-future", 90, s + 3600);
  bridge("fz-stale", 95, s - 3600);
  writeFileSync(join(sb.env.TMPDIR!, "claude-ctx-fz-corrupt.json"), '{"session_id":"fz-corrupt","used_pct":');
  const sessions = join(sb.project, ".ctx", "sessions");
  mkdirSync(sessions, { recursive: true });
  writeOwnSummary(
    sb.env,
    join(sessions, "summary-fz-task-20250101-000000.md"),
    "# Handoff summary\n\n## Remaining\n- finish the tests\n",
  );
}
