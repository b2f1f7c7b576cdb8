import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { ansiToSvg, applySgr, cellWidth, DEFAULT_FG, palette256, parseAnsi } from "../../scripts/ansi-svg.ts";
import { glyphShape, SAFE_TEXT } from "../../scripts/ansi-glyphs.ts";
import { SCREENS, SHOTS } from "../../scripts/screenshots.ts";

const README = readFileSync(join(import.meta.dir, "..", "..", "README.md"), "utf8");

/** The characters inside the SVG's <text> elements, entities undone. */
const textContents = (svg: string): string[] =>
  [...svg.matchAll(/<text [^>]*>([^<]*)<\/text>/g)].map((m) =>
    m[1]!.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&"),
  );

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

  test("glyphs a font may lack are drawn as shapes in their cells; text keeps only what every font has", () => {
    const glyphs = "⎿❯●⏺◐✻⚠⏵⏸←→↻✓✗█▀▄▌▐▎▏▁▇░▒▓▖▗▘▙▚▛▜▝▞▟─│┌┐└┘╭╮╰╯├┤┬┴┼";
    for (const ch of glyphs) expect(glyphShape(ch)).toBeDefined();
    for (const ch of "a·…—é ") expect(glyphShape(ch)).toBeUndefined();
    const svg = ansiToSvg(`\x1b[32m●\x1b[0m Bash(ls)\n  ⎿  ok · done…\n❯ \x1b[2m▐▛█\x1b[0m ↻ 2 │ x`, { cols: 20 });
    assertWellFormed(svg);
    for (const t of textContents(svg)) expect(t).toMatch(SAFE_TEXT);
    expect(textContents(svg)).toEqual([" Bash(ls)", "  ok · done…", " 2 ", " x"]);
    // ● at column 0 in its colour; ⎿ at column 2 of row 1; the dim logo keeps its dimness
    expect(svg).toContain(`<g transform="translate(10 10)"><circle cx="4.2" cy="9.69" r="3.19" fill="#0dbc79"/></g>`);
    expect(svg).toContain(`<g transform="translate(26.8 27)"><path d="M2.94 0.85V9.35H8.4"`);
    expect(svg).toContain(
      `<g transform="translate(26.8 44)" opacity="0.6"><rect x="4.2" y="0" width="4.6" height="17.4"`,
    );
    // the text after a shape starts at its own column: row 1's text from column 3, 12 cells wide
    expect(svg).toContain(`<text x="35.2" y="40" textLength="100.8"`);
    // a row of one stretchable glyph is one shape: the rule as one line, the bar as one block
    const rule = ansiToSvg("──────████░░", { cols: 12 });
    expect(rule).toContain(`<g transform="translate(10 10)"><rect x="0" y="7.9" width="25.8" height="1.2"`);
    expect(rule).toContain(`<g transform="translate(60.4 10)"><rect x="0" y="0" width="34" height="17.4"`);
    expect(rule).toContain(`<g transform="translate(94 10)"><rect x="0" y="0" width="16.8" height="17"`);
    expect(rule.match(/<g transform/g)!.length).toBe(3);
    // a full block fills its cell and bleeds 0.4px into the next, so a bar of them shows no seam
    expect(glyphShape("█")!(8.4, 17, "#fff")).toBe(`<rect x="0" y="0" width="8.8" height="17.4" fill="#fff"/>`);
  });
});

describe("the README's screenshots", () => {
  for (const name of SHOTS)
    test(`docs/screens/${name}.svg exists, is well-formed, is the render of its capture, and draws its glyphs`, () => {
      const svg = readFileSync(join(SCREENS, `${name}.svg`), "utf8");
      assertWellFormed(svg);
      const ansi = readFileSync(join(SCREENS, `${name}.ansi`), "utf8");
      expect(ansi).toContain("\x1b["); // a capture with its colours
      expect(ansi.replace(/\x1b\[[0-9;:]*m/g, "")).toContain(" │ exporter │ "); // ctx's status line is on screen
      const title = /aria-label="([^"]*)"/
        .exec(svg)![1]!
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&amp;/g, "&");
      expect(title).toStartWith("Claude Code 2.1.332 ");
      const cols = Math.round((Number(/ width="(\d+)"/.exec(svg)![1]) - 20) / 8.4);
      expect(ansiToSvg(ansi, { cols, title })).toBe(svg);
      for (const t of textContents(svg)) expect(t).toMatch(SAFE_TEXT);
    });

  test("the 1M shots read the budget and the window, the 200k ones the plain window, /clear its notice", () => {
    const screen = (name: string): string =>
      readFileSync(join(SCREENS, `${name}.ansi`), "utf8").replace(/\x1b\[[0-9;:]*m/g, "");
    expect(screen("warning")).toContain("66% of 200k budget · 1M window");
    expect(screen("critical")).toContain("76% of 200k budget · 1M window");
    expect(screen("warning-200k")).toContain("66% 132k/200k");
    expect(screen("critical-200k")).toContain("76% 151k/200k");
    for (const name of SHOTS) expect(screen(name)).not.toMatch(/retired/);
    expect(screen("clear").replace(/\n\s+/g, " ")).toMatch(
      /ctx: ↻ 2 · this session continues chain chain-\w+ from summary-/,
    );
    expect(screen("clear")).toMatch(/│ ↻ 2 │/);
    // the mod's line reads the budget like the status line, and the old session's is gone after /clear
    expect(screen("critical")).toContain("ctx: ctx 76% used CRITICAL");
    expect(screen("clear")).not.toContain("ctx: ctx");
  });

  test("every picture the README links is a captured shot", () => {
    const linked = [...README.matchAll(/\]\(docs\/screens\/([\w-]+)\.svg\)/g)].map((m) => m[1]);
    expect(linked.length).toBeGreaterThan(0);
    for (const name of linked) expect(SHOTS as readonly string[]).toContain(name!);
  });

  test("the agent's texts and the summary are the captured ones, with the budget", () => {
    const told = readFileSync(join(SCREENS, "agent-messages.txt"), "utf8").trim().split("\n");
    expect(told.map((l) => l.slice(0, 16))).toEqual(["CONTEXT WARNING:", "CONTEXT CRITICAL"]);
    for (const line of told) expect(line).toContain("of the 200k context budget is used (1M window)");
    expect(existsSync(join(SCREENS, "summary.md"))).toBe(true);
    const summary = readFileSync(join(SCREENS, "summary.md"), "utf8");
    expect(summary).not.toMatch(/ctx-e2e-|\/tmp\//);
    expect(summary).toContain("76% of 200k budget · 1M window");
    for (const heading of ["## Goal", "## How to continue"]) expect(summary).toContain(heading);
  });
});

describe("glyphs every font has", () => {
  test("Claude Code's ⎿ is drawn as a shape: no SVG holds a glyph a viewer may lack", () => {
    const svg = ansiToSvg("\x1b[37m  ⎿  says: ok\x1b[0m\n", { cols: 20 });
    expect(svg).not.toContain("⎿");
    expect(svg).toContain("says: ok");
    for (const name of SHOTS) expect(readFileSync(join(SCREENS, `${name}.svg`), "utf8")).not.toContain("⎿");
  });
});
