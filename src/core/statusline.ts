import type { Bridge } from "./bridge.ts";
import { asObject } from "./json.ts";
import { modelWindow } from "./agents/index.ts";
import { terminalSafe } from "./terminal.ts";
import type { Config } from "./config-schema.ts";
import { ladderOf, levelColour, levelOfReading, scaleFor } from "./levels.ts";
import { scaleText, shownPct } from "./budget.ts";
import { nearReset, parseRateLimits, rateLimitText, type RateLimits } from "./rate-limits.ts";
import {
  contextTokens,
  count,
  footerPct,
  formatTokens,
  percentage,
  reading,
  usablePct,
  windowFor,
  type ContextReading,
} from "./usage.ts";

/** What the status line needs from Claude Code's statusLine payload. */
export interface StatusInput {
  sessionId?: string;
  modelId?: string;
  modelName?: string;
  projectDir?: string;
  cwd?: string;
  transcriptPath?: string;
  /** Undefined when the payload has no usage yet (before the first reply). */
  context?: ContextReading;
  /** The plan's usage windows (`rate_limits`), when the payload carries them. */
  rateLimits?: RateLimits;
}

/**
 * Extracts the status input from a statusLine payload. Claude Code's own
 * `used_percentage` and `context_window_size` are the truth when present.
 */
export function statusInput(payload: Record<string, unknown>, cfg: Config): StatusInput {
  const model = obj(payload.model);
  const ws = obj(payload.workspace);
  const cw = obj(payload.context_window);
  const modelId = strOf(model.id);
  const out: StatusInput = {
    sessionId: strOf(payload.session_id),
    modelId,
    modelName: strOf(model.display_name) ?? modelId,
    projectDir: strOf(ws.project_dir) ?? strOf(ws.current_dir) ?? strOf(payload.cwd),
    cwd: strOf(payload.cwd) ?? strOf(ws.current_dir),
    transcriptPath: strOf(payload.transcript_path),
  };
  const limits = parseRateLimits(payload.rate_limits);
  if (limits) out.rateLimits = limits;
  const current = cw.current_usage && typeof cw.current_usage === "object" ? cw.current_usage : undefined;
  const used = current ? contextTokens(current) : undefined;
  const size =
    count(cw.context_window_size) || windowFor(modelId, used ?? 0, cfg["context.window_size"], modelWindow(modelId));
  const given = percentage(cw.used_percentage); // 1e308, negative, NaN-ish: rejected here, at the edge
  if (given !== undefined) {
    const usedPct = Math.round(given);
    const tokens = used ?? Math.round((usedPct / 100) * size);
    out.context = { usedTokens: tokens, windowSize: size, usedPct, remainingPct: Math.max(0, 100 - usedPct) };
  } else if (used !== undefined) {
    out.context = reading(used, size);
  }
  return out;
}

/** The bridge record for a status input, or undefined without a session or usage. */
export function bridgeOf(input: StatusInput, nowMs: number): Bridge | undefined {
  if (!input.sessionId || !input.context) return undefined;
  const c = input.context;
  return {
    session_id: input.sessionId,
    remaining_percentage: c.remainingPct,
    used_pct: c.usedPct,
    timestamp: Math.floor(nowMs / 1000),
    used_tokens: c.usedTokens,
    context_window_size: c.windowSize,
    model: input.modelId ?? null,
    cwd: input.cwd ?? null,
    transcript_path: input.transcriptPath ?? null,
  };
}

/** Rendering options. */
export interface RenderOptions {
  color: boolean;
  branch?: string;
  /** The session's label (its tmux window's name, else a short id), shown after the model. */
  label?: string;
  /** The usage limit, as `ctx status` writes it (`limit · resets 15:03`), when the session is at it. */
  limit?: string;
  /** A continued session (`↻ 2`: the chain's second session) until its first reply, else undefined. */
  continued?: number;
}

/** Renders the one status line: model │ label │ project (branch) │ bar pct tokens/window. */
export function renderStatus(input: StatusInput, cfg: Config, opts: RenderOptions): string {
  const paint = (code: string, s: string) => (opts.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const parts: string[] = [];
  if (input.modelName) parts.push(paint("36", sanitize(input.modelName, 40)));
  if (opts.label) parts.push(paint("1", sanitize(opts.label, 40)));
  const dir = input.projectDir ? baseName(input.projectDir) : undefined;
  if (dir)
    parts.push(
      opts.branch ? `${sanitize(dir, 40)} ${paint("2", `(${sanitize(opts.branch, 40)})`)}` : sanitize(dir, 40),
    );
  if (opts.continued !== undefined) parts.push(paint("1", `↻ ${opts.continued}`));
  parts.push(usageText(input.context, cfg, paint));
  const windows = input.rateLimits && rateLimitText(input.rateLimits);
  if (windows) {
    const near = nearReset(input.rateLimits, cfg["limits.checkpoint_at"], Number.NEGATIVE_INFINITY);
    parts.push(paint(near ? "31" : "2", windows));
  }
  if (opts.limit) parts.push(paint("31", sanitize(opts.limit, 40)));
  return parts.join(paint("2", " │ "));
}

/** A 10-cell bar for a percentage: ███████░░░. */
export function bar(pct: number, cells = 10): string {
  const filled = Math.min(cells, Math.max(0, Math.round((pct / 100) * cells)));
  return "█".repeat(filled) + "░".repeat(cells - filled);
}

// --- internal ---

function usageText(c: ContextReading | undefined, cfg: Config, paint: (code: string, s: string) => string): string {
  if (!c) return paint("2", `${bar(0)} --%`);
  const ladder = ladderOf(cfg);
  const level = levelOfReading(c, ladder);
  const colour = levelColour(level);
  const paused = level === "auto_pause" ? ` ${paint(colour, "paused")}` : "";
  const scale = scaleFor(c, ladder);
  if (scale.budget !== null) {
    // Under a budget the figure is its share: `65% of 200k budget · 1M window (130k)`.
    const pct = shownPct(c.usedTokens, c.usedPct, scale);
    return `${paint(colour, `${bar(pct)} ${pct}%`)} of ${scaleText(scale)} (${formatTokens(c.usedTokens)})${paused}`;
  }
  const usable = usablePct(c.usedTokens, c.windowSize, cfg["statusline.autocompact_buffer_pct"]);
  const display = cfg["statusline.display"];
  const shown =
    display === "usable" ? usable : display === "footer" ? footerPct(c.usedTokens, c.windowSize) : c.usedPct;
  const extra = display === "both" ? ` (${usable}% usable)` : "";
  return `${paint(colour, `${bar(shown)} ${shown}%`)}${extra} ${formatTokens(c.usedTokens)}/${formatTokens(c.windowSize)}${paused}`;
}

function obj(v: unknown): Record<string, unknown> {
  return asObject(v) ?? {};
}

function strOf(v: unknown): string | undefined {
  return typeof v === "string" && v !== "" ? v : undefined;
}

function baseName(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  return trimmed.slice(trimmed.lastIndexOf("/") + 1) || trimmed;
}

/**
 * Strips control characters (no escape sequences from the payload reach the
 * terminal), line separators and bidi controls (a U+202E in a project name
 * would show the rest of the line reversed), and caps the length.
 */
function sanitize(s: string, max: number): string {
  const clean = terminalSafe(s);
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}
