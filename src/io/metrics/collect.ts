/**
 * What `ctx metrics` exports: every live session of the per-user index (not ended, not stale),
 * with the figure `ctx status` shows, its monitor's warnings, its supervisor's cycles and the age
 * of its chain's newest summary (docs/metrics.md).
 */
import { hostname } from "node:os";
import { basename } from "node:path";
import type { Config } from "../../core/config-schema.ts";
import type { Env } from "../../core/deps.ts";
import { parseMonitorState } from "../../core/debounce.ts";
import { layout } from "../../core/layout.ts";
import { ladderOf } from "../../core/levels.ts";
import type { SessionMetrics } from "../../core/metrics.ts";
import { taskOfSummary } from "../../core/resume/hook-decision.ts";
import { withBridge } from "../../core/status/entry.ts";
import { toRow, uniqueLabels } from "../../core/status/rows.ts";
import { readJsonFile } from "../fs/read.ts";
import { listSummaries } from "../resume/summaries.ts";
import { readBridge } from "../session/bridge.ts";
import { labelBefore } from "../session/entry-label.ts";
import { readIndex } from "../session/index.ts";

/** The metrics of every live session at `nowMs`. */
export function collectMetrics(env: Env, cfg: Config, nowMs: number): SessionMetrics[] {
  const host = hostname();
  const ladder = ladderOf(cfg);
  const live = readIndex(env, nowMs).flatMap((s) => {
    if (s.ended) return [];
    const bridge = readBridge(env, s.entry.session_id);
    const entry = withBridge(s.entry, bridge);
    const row = toRow(entry, nowMs, cfg["status.stale_after_s"], ladder, false, s.supervisor);
    if (row.stale) return [];
    const label = bridge?.label ?? labelBefore(env, s.entry);
    return [{ entry, row: label ? { ...row, label } : row }];
  });
  // two live sessions under one label would be one series: clashing labels get the short id
  const labels = uniqueLabels(live.map((l) => l.row));
  const newest = newestSummaries(live.map((l) => l.entry.root));
  return live.map(({ entry, row }, i) => {
    const summaryMs = newest.get(`${entry.root}\0${entry.task_id}`);
    return {
      agent: entry.agent || "unknown",
      project: basename(entry.project) || "?",
      session: labels[i]!.label,
      host,
      usedRatio: row.used_pct === null ? null : row.used_pct / 100,
      usedTokens: row.used_tokens,
      windowTokens: row.window_size,
      level: row.level,
      limitResetS: row.limit && row.resets_at ? Math.floor(Date.parse(row.resets_at) / 1000) : null,
      summaryAgeS: summaryMs === undefined ? null : Math.max(0, Math.round((nowMs - summaryMs) / 1000)),
      warningsSent: warningsSent(entry.root, entry.session_id),
      respawnCycles: respawnCycles(entry.respawn),
    };
  });
}

// --- internal ---

/** The newest summary's mtime per `<root>\0<task id>`, each root listed once. */
function newestSummaries(roots: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  for (const root of new Set(roots)) {
    if (!root.startsWith("/")) continue;
    for (const f of listSummaries(root)) {
      const key = `${root}\0${taskOfSummary(f.name) ?? ""}`;
      if ((out.get(key) ?? -1) < f.mtimeMs) out.set(key, f.mtimeMs);
    }
  }
  return out;
}

/** The monitor's never-reset count of warnings sent (core/debounce.ts), 0 without its file. */
function warningsSent(root: string, sessionId: string): number {
  const path = root.startsWith("/") ? layout(root).monitorFile(sessionId) : undefined;
  const read = path ? readJsonFile<unknown>(path, { maxBytes: 64 * 1024 }) : undefined;
  const state = read?.status === "ok" ? parseMonitorState(read.value) : undefined;
  return state?.sent_total ?? 0;
}

/** The cycles of the session's supervisor from its index entry's `respawn` field, or null without one. */
function respawnCycles(respawn: unknown): number | null {
  if (!respawn || typeof respawn !== "object") return null;
  const c = (respawn as Record<string, unknown>).cycles;
  return typeof c === "number" && Number.isInteger(c) && c >= 0 ? c : null;
}
