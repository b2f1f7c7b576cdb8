/**
 * Renders a terminal capture with ANSI colours (`tmux capture-pane -e -p`) as an SVG picture:
 * a monospace grid of cells, SGR colours (16, 256 and 24-bit), bold, dim, italic, underline and
 * inverse; glyphs a font may lack are drawn as shapes (scripts/ansi-glyphs.ts). Used by scripts/screenshots.ts for the README's pictures; no dependency.
 */
import { glyphShape, STRETCH } from "./ansi-glyphs.ts";

/** One styled cell's attributes. */
interface Style {
  fg?: string;
  bg?: string;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  inverse: boolean;
}

/** A run of characters of one style on one row, starting at column `col`, `width` cells wide. */
export interface Run {
  row: number;
  col: number;
  width: number;
  text: string;
  style: Style;
}

/** Options for {@link ansiToSvg}. */
export interface SvgOptions {
  /** Columns of the grid (default: the longest row). */
  cols?: number;
  /** A title drawn above the grid (the window's caption), or none. */
  title?: string;
}

/** Default foreground and background (a dark terminal). */
export const DEFAULT_FG = "#d0d0d0";
/** Default background. */
export const DEFAULT_BG = "#1c1c1c";
const CELL_W = 8.4;
const CELL_H = 17;
const FONT_SIZE = 14;
const PAD = 10;
const TITLE_H = 24;
/** The grid's font, on the one `<g>` that holds every cell. */
export const FONT = `font-family="ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace" font-size="${FONT_SIZE}"`;

/** The 16 basic colours (xterm's defaults, slightly softened). */
const BASIC = [
  "#000000",
  "#cd3131",
  "#0dbc79",
  "#e5e510",
  "#2472c8",
  "#bc3fbc",
  "#11a8cd",
  "#e5e5e5",
  "#666666",
  "#f14c4c",
  "#23d18b",
  "#f5f543",
  "#3b8eea",
  "#d670d6",
  "#29b8db",
  "#ffffff",
];

/** The colour of xterm's 256-colour palette entry `n`. */
export function palette256(n: number): string {
  if (n < 16) return BASIC[n]!;
  if (n < 232) {
    const v = n - 16;
    const level = (c: number): number => (c === 0 ? 0 : 55 + c * 40);
    return hex(level(Math.floor(v / 36)), level(Math.floor(v / 6) % 6), level(v % 6));
  }
  const g = 8 + (n - 232) * 10;
  return hex(g, g, g);
}

function hex(r: number, g: number, b: number): string {
  return `#${[r, g, b].map((c) => Math.max(0, Math.min(255, c)).toString(16).padStart(2, "0")).join("")}`;
}

/** Cells a character takes in a terminal: 2 for East Asian wide characters and most emoji, else 1. */
export function cellWidth(cp: number): number {
  const wide =
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff);
  return wide ? 2 : 1;
}

const plain = (): Style => ({ bold: false, dim: false, italic: false, underline: false, inverse: false });

/** Applies one SGR sequence's parameters (`1;38;5;208`) to `s`. */
export function applySgr(s: Style, params: string): Style {
  const p = params === "" ? [0] : params.split(";").map((x) => (x === "" ? 0 : Number(x)));
  let out = { ...s };
  for (let i = 0; i < p.length; i++) {
    const n = p[i]!;
    if (n === 0) out = plain();
    else if (n === 1) out.bold = true;
    else if (n === 2) out.dim = true;
    else if (n === 3) out.italic = true;
    else if (n === 4) out.underline = true;
    else if (n === 7) out.inverse = true;
    else if (n === 22) out.bold = out.dim = false;
    else if (n === 23) out.italic = false;
    else if (n === 24) out.underline = false;
    else if (n === 27) out.inverse = false;
    else if (n >= 30 && n <= 37) out.fg = BASIC[n - 30];
    else if (n >= 90 && n <= 97) out.fg = BASIC[n - 90 + 8];
    else if (n >= 40 && n <= 47) out.bg = BASIC[n - 40];
    else if (n >= 100 && n <= 107) out.bg = BASIC[n - 100 + 8];
    else if (n === 39) out.fg = undefined;
    else if (n === 49) out.bg = undefined;
    else if (n === 38 || n === 48) {
      let colour: string | undefined;
      if (p[i + 1] === 5) {
        colour = palette256(p[i + 2] ?? 0);
        i += 2;
      } else if (p[i + 1] === 2) {
        colour = hex(p[i + 2] ?? 0, p[i + 3] ?? 0, p[i + 4] ?? 0);
        i += 4;
      }
      if (n === 38) out.fg = colour;
      else out.bg = colour;
    }
  }
  return out;
}

const SEQ = /\x1b\[([0-9;:?]*)([@-~])|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[()][A-Za-z0-9]|\x1b[=>]/y;

/** Splits a capture into styled runs on a grid; escapes other than SGR are dropped. */
export function parseAnsi(capture: string): Run[] {
  const runs: Run[] = [];
  let style = plain();
  const lines = capture.replace(/\r/g, "").replace(/\n$/, "").split("\n");
  lines.forEach((line, row) => {
    let col = 0;
    let run: Run | undefined;
    const flush = (): void => {
      if (run && run.text !== "") runs.push(run);
      run = undefined;
    };
    for (let i = 0; i < line.length; ) {
      if (line[i] === "\x1b") {
        SEQ.lastIndex = i;
        const m = SEQ.exec(line);
        if (m) {
          if (m[2] === "m") {
            flush();
            style = applySgr(style, (m[1] ?? "").replace(/:/g, ";"));
          }
          i = SEQ.lastIndex;
          continue;
        }
        i++;
        continue;
      }
      const cp = line.codePointAt(i)!;
      const ch = String.fromCodePoint(cp);
      i += ch.length;
      if (cp < 0x20) continue;
      const w = cellWidth(cp);
      if (!run) run = { row, col, width: 0, text: "", style };
      run.text += ch;
      run.width += w;
      col += w;
    }
    flush();
  });
  return runs;
}

const esc = (s: string): string => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Renders a capture (ANSI text) as a standalone SVG document. */
export function ansiToSvg(capture: string, opts: SvgOptions = {}): string {
  const runs = parseAnsi(capture);
  const rows = capture.replace(/\r/g, "").replace(/\n$/, "").split("\n").length;
  const cols = opts.cols ?? Math.max(1, ...runs.map((r) => r.col + r.width));
  const top = PAD + (opts.title === undefined ? 0 : TITLE_H);
  const w = Math.ceil(cols * CELL_W + 2 * PAD);
  const h = Math.ceil(rows * CELL_H + top + PAD);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}" role="img"${
      opts.title === undefined ? "" : ` aria-label="${esc(opts.title)}"`
    }>`,
    `<rect width="100%" height="100%" rx="6" fill="${DEFAULT_BG}"/>`,
  ];
  if (opts.title !== undefined)
    out.push(
      `<text x="${PAD}" y="${PAD + 12}" fill="#8a8a8a" font-family="sans-serif" font-size="12">${esc(opts.title)}</text>`,
    );
  const y = (row: number): number => top + row * CELL_H;
  out.push(`<g ${FONT} xml:space="preserve">`);
  for (const r of runs) {
    const [fg, bg] = r.style.inverse ? [r.style.bg ?? DEFAULT_BG, r.style.fg ?? DEFAULT_FG] : [r.style.fg, r.style.bg];
    if (bg)
      out.push(
        `<rect x="${fix(PAD + r.col * CELL_W)}" y="${y(r.row)}" width="${fix(r.width * CELL_W)}" height="${CELL_H}" fill="${bg}"/>`,
      );
    // Characters a font may lack are drawn as shapes (scripts/ansi-glyphs.ts); the rest stays text.
    let col = r.col;
    let seg = { col, text: "", width: 0 };
    const flushText = (): void => {
      if (seg.text.trim() !== "") out.push(textRun(seg, y(r.row), r.style, fg));
      seg = { col, text: "", width: 0 };
    };
    const chars = [...r.text];
    for (let i = 0; i < chars.length; i++) {
      const ch = chars[i]!;
      const w = cellWidth(ch.codePointAt(0)!);
      const shape = glyphShape(ch);
      if (shape) {
        flushText();
        // A row of one stretchable glyph (a rule ───, a bar ███) is one shape as wide as the row.
        let n = 1;
        if (STRETCH.has(ch)) while (chars[i + n] === ch) n++;
        i += n - 1;
        const dim = r.style.dim ? ` opacity="0.6"` : "";
        out.push(
          `<g transform="translate(${fix(PAD + col * CELL_W)} ${y(r.row)})"${dim}>${shape(n * w * CELL_W, CELL_H, fg ?? DEFAULT_FG)}</g>`,
        );
        col += n * w;
        seg.col = col;
        continue;
      }
      seg.text += ch;
      seg.width += w;
      col += w;
    }
    flushText();
  }
  out.push("</g>", "</svg>");
  return `${out.join("\n")}\n`;
}

/** One `<text>` of `seg.width` cells at column `seg.col` of the row whose top is at `top`. */
function textRun(seg: { col: number; text: string; width: number }, top: number, style: Style, fg?: string): string {
  const attrs = [
    `x="${fix(PAD + seg.col * CELL_W)}"`,
    `y="${top + CELL_H - 4}"`,
    `textLength="${fix(seg.width * CELL_W)}"`,
    `lengthAdjust="spacingAndGlyphs"`,
    `fill="${fg ?? DEFAULT_FG}"`,
  ];
  if (style.bold) attrs.push(`font-weight="bold"`);
  if (style.dim) attrs.push(`opacity="0.6"`);
  if (style.italic) attrs.push(`font-style="italic"`);
  if (style.underline) attrs.push(`text-decoration="underline"`);
  return `<text ${attrs.join(" ")}>${esc(seg.text)}</text>`;
}

function fix(n: number): string {
  return String(Math.round(n * 10) / 10);
}
