import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ansiToSvg, applySgr, cellWidth, DEFAULT_FG, palette256, parseAnsi } from "../../scripts/ansi-svg.ts";
import { SCREENS, SHOTS } from "../../scripts/screenshots.ts";

const README = readFileSync(join(import.meta.dir, "..", "..", "README.md"), "utf8");

/** Throws unless `xml` is one well-formed element tree (tags balanced and nested, attributes quoted). */
function assertWellFormed(xml: string): void {
  const stack: string[] = [];
  const body = xml.replace(/^<\?xml[^>]*\?>\s*/, "").trim();
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[\w:-]+="[^"<]*")*)\s*(\/?)>|<|&(?!(?:amp|lt|gt|quot|#\d+);)/g;
  let roots = 0;
  for (const m of body.matchAll(tag)) {
    if (m[2] === undefined) throw new Error(`stray ${m[0]} at ${m.index}`);
    if (m[1] === "/") {
      if (stack.pop() !== m[2]) throw new Error(`</${m[2]}> closes nothing at ${m.index}`);
    } else if (m[4] !== "/") {
      if (stack.length === 0) roots++;
      stack.push(m[2]);
    }
  }
  if (stack.length !== 0) throw new Error(`unclosed ${stack.join(", ")}`);
  if (roots !== 1 || !body.startsWith("<svg") || !body.endsWith("</svg>")) throw new Error("not one <svg> root");
}

describe("ANSI → SVG renderer", () => {
  test("SGR: 16, 256 and 24-bit colours, bold, reset, inverse", () => {
    let s = applySgr({ bold: false, dim: false, italic: false, underline: false, inverse: false }, "1;31");
    expect(s).toMatchObject({ bold: true, fg: "#cd3131" });
    s = applySgr(s, "38;5;208;48;2;0;0;255");
    expect(s).toMatchObject({ bold: true, fg: "#ff8700", bg: "#0000ff" });
    expect(applySgr(s, "0")).toEqual({ bold: false, dim: false, italic: false, underline: false, inverse: false });
    expect(applySgr(s, "7").inverse).toBe(true);
    expect(palette256(232)).toBe("#080808");
    expect(palette256(21)).toBe("#0000ff");
  });

  test("a small capture becomes runs on a monospace grid", () => {
    const runs = parseAnsi("ab \x1b[1;33mWARN\x1b[0m│x\n\x1b[2m界z\x1b]0;title\x07\x1b[m.");
    expect(runs.map((r) => [r.row, r.col, r.width, r.text, r.style.fg ?? "", r.style.bold])).toEqual([
      [0, 0, 3, "ab ", "", false],
      [0, 3, 4, "WARN", "#e5e510", true],
      [0, 7, 2, "│x", "", false],
      [1, 0, 3, "界z", "", false],
      [1, 3, 1, ".", "", false],
    ]);
    expect(runs[3]!.style.dim).toBe(true);
    expect(cellWidth("界".codePointAt(0)!)).toBe(2);
    expect(cellWidth("█".codePointAt(0)!)).toBe(1);
  });

  test("the SVG places each run at its cell, escapes text, and is well-formed", () => {
    const svg = ansiToSvg("x \x1b[1;31m<b&>\x1b[0m\n\x1b[42m  \x1b[0m", { cols: 10, title: "a <t>" });
    assertWellFormed(svg);
    expect(svg).toContain(`fill="#cd3131" font-weight="bold">&lt;b&amp;&gt;</text>`);
    expect(svg).toContain(
      `<text x="10" y="47" textLength="16.8" lengthAdjust="spacingAndGlyphs" fill="${DEFAULT_FG}">x </text>`,
    );
    expect(svg).toContain(`x="26.8" y="47" textLength="33.6"`); // column 2, 4 cells
    expect(svg).toContain(`<rect x="10" y="51" width="16.8" height="17" fill="#0dbc79"/>`); // row 2's green cells
    expect(svg).toContain(`aria-label="a &lt;t&gt;"`);
    expect(() => assertWellFormed("<svg><g></svg>")).toThrow();
  });
});

describe("the README's screenshots", () => {
  for (const name of SHOTS)
    test(`docs/screens/${name}.svg exists, is well-formed, is the render of its capture, and the README shows it`, () => {
      const svg = readFileSync(join(SCREENS, `${name}.svg`), "utf8");
      assertWellFormed(svg);
      const ansi = readFileSync(join(SCREENS, `${name}.ansi`), "utf8");
      expect(ansi).toContain("\x1b["); // a capture with its colours
      const title = /aria-label="([^"]*)"/
        .exec(svg)![1]!
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&");
      const cols = Math.round((Number(/ width="(\d+)"/.exec(svg)![1]) - 20) / 8.4);
      expect(ansiToSvg(ansi, { cols, title })).toBe(svg);
      expect(README).toContain(`](docs/screens/${name}.svg)`);
    });

  test("the agent's texts and the summary the README quotes are the captured ones", () => {
    const told = readFileSync(join(SCREENS, "agent-messages.txt"), "utf8").trim().split("\n");
    expect(told.map((l) => l.slice(0, 16))).toEqual(["CONTEXT WARNING:", "CONTEXT CRITICAL"]);
    for (const line of told) expect(README).toContain(line);
    expect(existsSync(join(SCREENS, "summary.md"))).toBe(true);
    const summary = readFileSync(join(SCREENS, "summary.md"), "utf8");
    expect(summary).not.toMatch(/ctx-e2e-|\/tmp\//);
    for (const heading of ["## Goal", "## How to continue"]) expect(summary).toContain(heading);
  });
});

describe("glyphs every font has", () => {
  test("Claude Code's ⎿ is drawn as └: no SVG holds a glyph a viewer may lack", () => {
    expect(ansiToSvg("\x1b[37m  ⎿  says: ok\x1b[0m\n", { cols: 20 })).toContain("  └  says: ok");
    for (const name of SHOTS) expect(readFileSync(join(SCREENS, `${name}.svg`), "utf8")).not.toContain("⎿");
  });
});
