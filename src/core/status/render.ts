/** Renders status rows: a table for people, JSON for scripts. Pure. */
import { bar } from "../statusline.ts";
import { formatTokens } from "../usage.ts";
import { terminalSafe } from "../terminal.ts";
import { ageText, tildify, truncateLeft, truncateRight } from "./format.ts";
import { levelColour } from "../levels.ts";
import { modelDisplayName } from "../model-name.ts";
import { faded, type StatusRow } from "./rows.ts";
import { limitText } from "../limit.ts";

/** Table options. */
export interface TableOptions {
  color: boolean;
  /** Stale rows left out by the filter (a footer says so). */
  hiddenStale: number;
  /** Sessions that ended longer ago than status.ended_visible_s, left out (the footer says so). */
  hiddenEnded?: number;
  /** Shortens paths under the home directory to `~`. */
  home?: string;
}

const HEADERS = ["PROJECT", "SESSION", "TASK", "MODEL", "USED", "TOKENS", "LEVEL", "STATE", "UPDATED"];

/** The table, one line per row, with a header and a footer about hidden stale sessions. */
export function renderTable(rows: readonly StatusRow[], o: TableOptions): string {
  const paint = (code: string, s: string) => (o.color ? `\x1b[${code}m${s}\x1b[0m` : s);
  const footer = hiddenText(o.hiddenStale, o.hiddenEnded ?? 0);
  if (rows.length === 0) return `No ctx sessions to show.\n${footer}`;
  const cells = rows.map((r) => cellsOf(r, o.home));
  const widths = HEADERS.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: readonly string[]) => c.map((s, i) => (i === c.length - 1 ? s : s.padEnd(widths[i]!))).join("  ");
  const out = [paint("1", line(HEADERS))];
  rows.forEach((r, i) => {
    const c = cells[i]!;
    if (faded(r)) {
      out.push(paint("2", line(c)));
      return;
    }
    const coloured = c.map((s, j) => s.padEnd(j === c.length - 1 ? 0 : widths[j]!));
    coloured[4] = paint(levelColour(r.level), coloured[4]!);
    coloured[6] = paint(levelColour(r.level), coloured[6]!);
    out.push(coloured.join("  "));
  });
  return `${out.join("\n")}\n${footer}${rows.some(isCodex) ? CODEX_NOTE : ""}`;
}

/** Codex CLI's rows: the window comes from its rollout (`transcript`), the used % from Codex's own formula. */
const isCodex = (r: StatusRow): boolean => r.context_window_source === "transcript";

/** Why a Codex row's USED does not add up by eye from its TOKENS (docs/clients.md, "The context figure"). */
export const CODEX_NOTE =
  "Codex rows: USED is Codex's own figure, which leaves a 12k baseline out of both tokens and window\n" +
  "  (182k/258k shows 69%, as Codex's footer does), so it is not TOKENS divided by the window.\n";

/** The JSON document of `--json`: the rows (with the model's display name), plus the counts. */
export function renderJson(
  rows: readonly StatusRow[],
  hiddenStale: number,
  nowMs: number,
  oneLine = false,
  hiddenEnded = 0,
): string {
  const sessions = rows.map((r) => ({ ...r, model_name: modelDisplayName(r.model) }));
  const doc = {
    version: 1,
    generated_at: new Date(nowMs).toISOString(),
    hidden_stale: hiddenStale,
    hidden_ended: hiddenEnded,
    sessions,
  };
  return `${oneLine ? JSON.stringify(doc) : JSON.stringify(doc, null, 2)}\n`;
}

/** The cells of one row, in HEADERS order, without colour. */
export function cellsOf(r: StatusRow, home?: string): string[] {
  // under a budget the % is its share, and the tokens read `130k/200k·1M` (budget · window)
  const pct = r.budget_pct ?? r.used_pct;
  const used = pct === null ? `${bar(0)}   --` : `${bar(pct)} ${`${Math.round(pct)}%`.padStart(4)}`;
  const of = r.budget === null ? "" : `${formatTokens(r.budget)}·`;
  const tokens =
    r.used_tokens === null || (r.used_tokens === 0 && !r.window_size)
      ? "--"
      : `${formatTokens(r.used_tokens)}/${of}${r.window_size === null ? "?" : formatTokens(r.window_size)}`;
  return [
    truncateLeft(terminalSafe(tildify(r.project, home)) || "?", 32),
    terminalSafe(r.label) || r.session_id.slice(0, 8),
    truncateRight(terminalSafe(r.task_id) || "-", 24),
    truncateRight(terminalSafe(modelDisplayName(r.model)) || "?", 24),
    used,
    tokens,
    r.level,
    stateText(r),
    r.age_s === null ? "?" : `${ageText(r.age_s * 1000)} ago`,
  ];
}

/** Pause, limit and respawn state in a few words: `paused`, `limit · resets 15:03`, `respawn:watching`, `-`; or only `ended`. */
export function stateText(
  r: Pick<StatusRow, "auto_pause_active" | "respawn" | "ended"> & Partial<Pick<StatusRow, "limit" | "resets_at">>,
): string {
  // an ended session is only that: its pause, limit and supervisor were its own and ended with it
  if (r.ended) return "ended";
  const parts: string[] = [];
  if (r.auto_pause_active) parts.push("paused");
  if (r.limit) parts.push(limitText(r.resets_at ? Date.parse(r.resets_at) : null));
  if (r.respawn) parts.push(`respawn:${truncateRight(terminalSafe(r.respawn), 16)}`);
  return parts.length ? parts.join(",") : "-";
}

// --- internal ---

function hiddenText(stale: number, ended: number): string {
  const parts: string[] = [];
  if (stale > 0) parts.push(`${stale} stale session${stale === 1 ? "" : "s"}`);
  if (ended > 0) parts.push(`${ended} ended session${ended === 1 ? "" : "s"}`);
  if (parts.length === 0) return "";
  const n = stale + ended;
  return `${parts.join(" and ")} hidden (--all shows ${n === 1 ? "it" : "them"})\n`;
}
