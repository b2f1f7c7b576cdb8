/**
 * ctx's status line beside the user's own (`ctx statusline --chain CMD`, `statusline.chain`):
 * which command runs, and how the two outputs share the row. Pure.
 */
import type { Config } from "./config-schema.ts";

/** Most rows of the chained command's output shown (its first shares ctx's row). */
const MAX_ROWS = 4;
/** Most characters of one chained row. */
const MAX_ROW = 300;

/**
 * The chained command: `--chain CMD` (or `--chain=CMD`) in argv wins, else `statusline.chain` (a
 * key that acts as the user: a project's file sets it only once trusted, core/trust.ts).
 */
export function chainedCommand(argv: readonly string[], cfg: Config): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === "--chain" && i + 1 < argv.length) return argv[i + 1]!.trim() || undefined;
    if (a.startsWith("--chain=")) return a.slice("--chain=".length).trim() || undefined;
  }
  const fromConfig = cfg["statusline.chain"].trim();
  return fromConfig || undefined;
}

/**
 * The rows to print: ctx's line and the chained output's first row on one row (ctx's first or
 * last), then the chained output's further rows. Colours (SGR) of the chained output are kept;
 * every other escape or control character is removed.
 */
export function chainedRows(ctxLine: string, output: string, position: string, color: boolean): string[] {
  const rows = output
    .split(/\r?\n/)
    .map((r) => cleanRow(r))
    .filter((r) => r.trim() !== "")
    .slice(0, MAX_ROWS);
  if (rows.length === 0) return [ctxLine];
  const sep = color ? "\x1b[2m │ \x1b[0m" : " │ ";
  const first = position === "last" ? `${rows[0]}${sep}${ctxLine}` : `${ctxLine}${sep}${rows[0]}`;
  return [first, ...rows.slice(1)];
}

/** One row of a chained command's output: SGR colour codes kept, every other escape and control removed, capped. */
function cleanRow(row: string): string {
  const kept: string[] = [];
  const clean = row
    .replace(/\u0000/g, "")
    // SGR colours stay (as placeholders while the rest is cleaned)
    .replace(/\x1b\[[0-9;:]*m/g, (m) => `\u0000${kept.push(m) - 1}\u0000`)
    // any other CSI, OSC (terminated by BEL or ST), or two-byte escape goes whole
    .replace(
      /\x1b\][\s\S]*?(?:\x07|\x1b\\|$)|\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-_]|\x9b[0-?]*[ -/]*[@-~]|\x9d[\s\S]*?(?:\x07|\x9c|$)/g,
      "",
    )
    .replace(/[\x01-\x1f\x7f-\x9f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, "");
  let visible = 0;
  let out = "";
  for (const part of clean.split(/(\u0000\d+\u0000)/)) {
    const code = /^\u0000(\d+)\u0000$/.exec(part);
    if (code) out += kept[Number(code[1])];
    else {
      const room = MAX_ROW - visible;
      if (room <= 0) continue;
      const take = part.replace(/\u0000/g, "").slice(0, room);
      out += take;
      visible += take.length;
    }
  }
  return kept.length ? `${out}\x1b[0m` : out;
}
