/**
 * Glyphs drawn as shapes in scripts/ansi-svg.ts's pictures, so they look the same whatever fonts the
 * viewer has: block elements (the client's logo, ctx's bar), box drawing lines, and the symbols
 * Claude Code prints (`⎿ ❯ ● ✻ ⚠ ⏵ ⏸ ◐ ← ↻`), which many monospace fonts lack and a browser then
 * shows as a missing-glyph box. Every other character stays text: ASCII, Latin-1 and general
 * punctuation (`· … – —`), which every font has.
 */

/** Characters every font used for the grid has; anything else in a <text> is a risk. */
export const SAFE_TEXT = /^[\u0020-\u007e\u00a0-\u00ff\u2010-\u2027]*$/u;

/** Glyphs whose shape for n cells is the same as n of them side by side: drawn once for a row of them. */
export const STRETCH: ReadonlySet<string> = new Set(["─", "█", "▀", "▄", "░", "▒", "▓", "▔", "▁"]);

/** A shape in a cell whose top left is (0,0) and size is w × h; `c` is the colour. */
type Draw = (w: number, h: number, c: string) => string;

const n = (v: number): string => String(Math.round(v * 100) / 100);
const plainRect = (x: number, y: number, w: number, h: number, c: string, extra = ""): string =>
  `<rect x="${n(x)}" y="${n(y)}" width="${n(w)}" height="${n(h)}" fill="${c}"${extra}/>`;
const rect = plainRect;
const stroke = (d: string, c: string, width = 1.3): string =>
  `<path d="${d}" fill="none" stroke="${c}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"/>`;
const fill = (d: string, c: string): string => `<path d="${d}" fill="${c}"/>`;

/** Quadrant blocks by which of upper-left, upper-right, lower-left, lower-right are filled. */
const QUADRANTS: Record<string, [boolean, boolean, boolean, boolean]> = {
  "▖": [false, false, true, false],
  "▗": [false, false, false, true],
  "▘": [true, false, false, false],
  "▙": [true, false, true, true],
  "▚": [true, false, false, true],
  "▛": [true, true, true, false],
  "▜": [true, true, false, true],
  "▝": [false, true, false, false],
  "▞": [false, true, true, false],
  "▟": [false, true, true, true],
};

/** Box drawing lines by the sides of the cell their arms reach: left, right, up, down. */
const BOX: Record<string, string> = {
  "─": "lr",
  "│": "ud",
  "┌": "rd",
  "╭": "rd",
  "┐": "ld",
  "╮": "ld",
  "└": "ur",
  "╰": "ur",
  "┘": "ul",
  "╯": "ul",
  "├": "udr",
  "┤": "udl",
  "┬": "lrd",
  "┴": "lru",
  "┼": "lrud",
};

/** Solid blocks reach 0.4px past their cell's right and bottom, so no seam shows between neighbours. */
const BLEED = 0.4;
const block = (x: number, y: number, w: number, h: number, c: string): string => rect(x, y, w + BLEED, h + BLEED, c);

function blockElement(ch: string): Draw | undefined {
  const cp = ch.codePointAt(0)!;
  const rect = block;
  if (ch === "█") return (w, h, c) => rect(0, 0, w, h, c);
  if (ch === "▀") return (w, h, c) => rect(0, 0, w, h / 2, c);
  if (ch === "▐") return (w, h, c) => rect(w / 2, 0, w / 2, h, c);
  if (ch === "▔") return (w, h, c) => rect(0, 0, w, h / 8, c);
  if (ch === "▕") return (w, h, c) => rect((w * 7) / 8, 0, w / 8, h, c);
  if (cp >= 0x2581 && cp <= 0x2587)
    return (w, h, c) => rect(0, h - (h * (cp - 0x2580)) / 8, w, (h * (cp - 0x2580)) / 8, c);
  if (cp >= 0x2589 && cp <= 0x258f) return (w, h, c) => rect(0, 0, (w * (0x2590 - cp)) / 8, h, c);
  if (ch === "▄") return (w, h, c) => rect(0, h / 2, w, h / 2, c);
  if (ch === "▌") return (w, h, c) => rect(0, 0, w / 2, h, c);
  if (cp >= 0x2591 && cp <= 0x2593)
    return (w, h, c) => plainRect(0, 0, w, h, c, ` fill-opacity="${(cp - 0x2590) * 0.25}"`);
  const q = QUADRANTS[ch];
  if (q)
    return (w, h, c) =>
      q.map((on, i) => (on ? rect((i % 2) * (w / 2), Math.floor(i / 2) * (h / 2), w / 2, h / 2, c) : "")).join("");
  return undefined;
}

function boxLine(ch: string): Draw | undefined {
  const arms = BOX[ch];
  if (!arms) return undefined;
  return (w, h, c) => {
    const t = 1.2;
    const [cx, cy] = [w / 2, h / 2];
    const parts: string[] = [];
    if (arms.includes("l")) parts.push(rect(0, cy - t / 2, cx + t / 2, t, c));
    if (arms.includes("r")) parts.push(rect(cx - t / 2, cy - t / 2, w - cx + t / 2, t, c));
    if (arms.includes("u")) parts.push(rect(cx - t / 2, 0, t, cy + t / 2, c));
    if (arms.includes("d")) parts.push(rect(cx - t / 2, cy - t / 2, t, h - cy + t / 2, c));
    return parts.join("");
  };
}

/** The symbols Claude Code prints, each sized to sit on the text's line like the font's glyph would. */
const SYMBOLS: Record<string, Draw> = {
  // ⎿ the tool result's elbow: down from the top, then right along the middle
  "⎿": (w, h, c) => stroke(`M${n(w * 0.35)} ${n(h * 0.05)}V${n(h * 0.55)}H${n(w)}`, c, 1.2),
  "❯": (w, h, c) =>
    stroke(`M${n(w * 0.28)} ${n(h * 0.33)}L${n(w * 0.72)} ${n(h * 0.57)}L${n(w * 0.28)} ${n(h * 0.81)}`, c, 1.8),
  "●": (w, h, c) => `<circle cx="${n(w / 2)}" cy="${n(h * 0.57)}" r="${n(w * 0.38)}" fill="${c}"/>`,
  "⏺": (w, h, c) => `<circle cx="${n(w / 2)}" cy="${n(h * 0.57)}" r="${n(w * 0.38)}" fill="${c}"/>`,
  "◐": (w, h, c) => {
    const [cx, cy, r] = [w / 2, h * 0.57, w * 0.34];
    return `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="none" stroke="${c}" stroke-width="1"/>${fill(
      `M${n(cx)} ${n(cy - r)}A${n(r)} ${n(r)} 0 0 0 ${n(cx)} ${n(cy + r)}Z`,
      c,
    )}`;
  },
  "✻": (w, h, c) => {
    const [cx, cy, r] = [w / 2, h * 0.55, w * 0.42];
    const spokes = [0, 45, 90, 135].map((deg) => {
      const [dx, dy] = [Math.cos((deg * Math.PI) / 180) * r, Math.sin((deg * Math.PI) / 180) * r];
      return `M${n(cx - dx)} ${n(cy - dy)}L${n(cx + dx)} ${n(cy + dy)}`;
    });
    return stroke(spokes.join(""), c, 1.4);
  },
  "⚠": (w, h, c) =>
    stroke(`M${n(w / 2)} ${n(h * 0.22)}L${n(w * 0.98)} ${n(h * 0.86)}H${n(w * 0.02)}Z`, c, 1.1) +
    rect(w / 2 - 0.6, h * 0.42, 1.2, h * 0.24, c) +
    rect(w / 2 - 0.6, h * 0.72, 1.2, 1.2, c),
  "⏵": (w, h, c) =>
    fill(`M${n(w * 0.2)} ${n(h * 0.32)}L${n(w * 0.85)} ${n(h * 0.57)}L${n(w * 0.2)} ${n(h * 0.82)}Z`, c),
  "⏸": (w, h, c) => rect(w * 0.2, h * 0.34, w * 0.2, h * 0.46, c) + rect(w * 0.6, h * 0.34, w * 0.2, h * 0.46, c),
  "←": (w, h, c) =>
    stroke(
      `M${n(w * 0.95)} ${n(h * 0.57)}H${n(w * 0.1)}M${n(w * 0.4)} ${n(h * 0.4)}L${n(w * 0.1)} ${n(h * 0.57)}L${n(w * 0.4)} ${n(h * 0.74)}`,
      c,
      1.2,
    ),
  "→": (w, h, c) =>
    stroke(
      `M${n(w * 0.05)} ${n(h * 0.57)}H${n(w * 0.9)}M${n(w * 0.6)} ${n(h * 0.4)}L${n(w * 0.9)} ${n(h * 0.57)}L${n(w * 0.6)} ${n(h * 0.74)}`,
      c,
      1.2,
    ),
  // ↻ an open circle, clockwise, its arrowhead at the top
  "↻": (w, h, c) => {
    const [cx, cy, r] = [w / 2, h * 0.58, w * 0.42];
    return (
      stroke(`M${n(cx - r * 0.2)} ${n(cy - r)}A${n(r)} ${n(r)} 0 1 0 ${n(cx + r * 0.87)} ${n(cy - r * 0.5)}`, c, 1.2) +
      fill(
        `M${n(cx - r * 0.2)} ${n(cy - r - 2.2)}L${n(cx + r * 0.55)} ${n(cy - r)}L${n(cx - r * 0.2)} ${n(cy - r + 2.2)}Z`,
        c,
      )
    );
  },
  "✓": (w, h, c) =>
    stroke(`M${n(w * 0.15)} ${n(h * 0.58)}L${n(w * 0.4)} ${n(h * 0.78)}L${n(w * 0.88)} ${n(h * 0.3)}`, c, 1.5),
  "✗": (w, h, c) =>
    stroke(
      `M${n(w * 0.2)} ${n(h * 0.35)}L${n(w * 0.8)} ${n(h * 0.8)}M${n(w * 0.8)} ${n(h * 0.35)}L${n(w * 0.2)} ${n(h * 0.8)}`,
      c,
      1.5,
    ),
};

/** The shape that draws `ch` in a w × h cell, or undefined when `ch` stays text. */
export function glyphShape(ch: string): Draw | undefined {
  return SYMBOLS[ch] ?? blockElement(ch) ?? boxLine(ch);
}
