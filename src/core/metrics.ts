/**
 * `ctx metrics`: every live session of the machine in the Prometheus text exposition format
 * (version 0.0.4), for a scrape or node_exporter's textfile collector (docs/metrics.md). Labels are
 * the agent, the project's name (never its path), the session's label and the host; no prompt
 * text, no file path. Pure.
 */
import type { Level } from "./levels.ts";
import { terminalSafe } from "./terminal.ts";

/** What one session exports. */
export interface SessionMetrics {
  /** `claude`, `codex`, `gemini`, or `unknown` (a session tracked by an older ctx). */
  agent: string;
  /** The project directory's last part only. */
  project: string;
  /** The session's label (core/label.ts). */
  session: string;
  /** The machine's host name. */
  host: string;
  /** Used share of the window, 0–1 (the used % ctx shows, as a ratio), or null before the first reading. */
  usedRatio: number | null;
  /** Tokens in the context, or null. */
  usedTokens: number | null;
  /** The window in tokens, or null. */
  windowTokens: number | null;
  /** The level of the ladder. */
  level: Level;
  /** When the usage limit resets (unix seconds), or null when not at a limit or unknown. */
  limitResetS: number | null;
  /** Seconds since the newest handoff summary of the session's chain, or null without one. */
  summaryAgeS: number | null;
  /** Warnings (and critical messages) the monitor sent the agent. */
  warningsSent: number;
  /** Respawn cycles run by the session's supervisor, or null without one. */
  respawnCycles: number | null;
}

/** The numeric value of each level in `ctx_context_level`. */
export const LEVEL_VALUE: Record<Level, number> = { ok: 0, warning: 1, critical: 2, auto_pause: 3 };

/** One metric family: its name, type, help and how a session gives its value (null: no sample). */
interface Family {
  name: string;
  type: "gauge" | "counter";
  help: string;
  value: (s: SessionMetrics) => number | null;
}

const FAMILIES: readonly Family[] = [
  {
    name: "ctx_context_used_ratio",
    type: "gauge",
    help: "Used share of the context window (0-1)",
    value: (s) => s.usedRatio,
  },
  { name: "ctx_context_used_tokens", type: "gauge", help: "Tokens in the context", value: (s) => s.usedTokens },
  { name: "ctx_context_window_tokens", type: "gauge", help: "Context window in tokens", value: (s) => s.windowTokens },
  {
    name: "ctx_context_level",
    type: "gauge",
    help: "Level of the ladder: 0 ok, 1 warning, 2 critical, 3 auto_pause",
    value: (s) => LEVEL_VALUE[s.level],
  },
  {
    name: "ctx_usage_limit_reset_timestamp_seconds",
    type: "gauge",
    help: "When the usage limit the session is at resets (unix seconds)",
    value: (s) => s.limitResetS,
  },
  {
    name: "ctx_summary_age_seconds",
    type: "gauge",
    help: "Age of the newest handoff summary of the session's chain",
    value: (s) => s.summaryAgeS,
  },
  {
    name: "ctx_warnings_sent_total",
    type: "counter",
    help: "Context warnings the monitor sent the agent",
    value: (s) => s.warningsSent,
  },
  {
    name: "ctx_respawn_cycles_total",
    type: "counter",
    help: "Respawn cycles run by the session's supervisor",
    value: (s) => s.respawnCycles,
  },
];

/** The names of every metric family ctx exports. */
export const METRIC_NAMES: readonly string[] = FAMILIES.map((f) => f.name);

/** The exposition text for `sessions`: HELP and TYPE of every family, then one sample per session that has one. */
export function renderMetrics(sessions: readonly SessionMetrics[]): string {
  const out: string[] = [];
  for (const f of FAMILIES) {
    out.push(`# HELP ${f.name} ${f.help}`, `# TYPE ${f.name} ${f.type}`);
    for (const s of sessions) {
      const v = f.value(s);
      if (v !== null && Number.isFinite(v)) out.push(`${f.name}{${labels(s)}} ${number(v)}`);
    }
  }
  return `${out.join("\n")}\n`;
}

/** A label value as the format wants it: backslash, double quote and newline escaped, control characters gone. */
export function labelValue(v: string): string {
  const clean = terminalSafe(v).replace(/\s+/g, " ").slice(0, 128);
  return clean.replace(/\\/g, "\\\\").replace(/"/g, '\\"');
}

// --- internal ---

function labels(s: SessionMetrics): string {
  const pairs: Array<[string, string]> = [
    ["agent", s.agent],
    ["project", s.project],
    ["session", s.session],
    ["host", s.host],
  ];
  return pairs.map(([k, v]) => `${k}="${labelValue(v)}"`).join(",");
}

function number(v: number): string {
  return Number.isInteger(v) ? String(v) : String(Math.round(v * 1e6) / 1e6);
}
