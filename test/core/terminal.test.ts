import { describe, expect, test } from "bun:test";
import { stripAnsi, terminalSafe } from "../../src/core/terminal.ts";

describe("stripAnsi", () => {
  test("removes colour, OSC titles and charset switches", () => {
    expect(stripAnsi("\x1b[1;31mred\x1b[0m \x1b]0;title\x07\x1b(Bok")).toBe("red ok");
  });
});

describe("terminalSafe", () => {
  test("removes escape sequences whole, not just their ESC", () => {
    expect(terminalSafe("Son\x1b[2Jnet")).toBe("Sonnet");
    expect(terminalSafe("a\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\b")).toBe("alinkb");
    expect(terminalSafe("\x1b[31mred\x1b[0m")).toBe("red");
  });
  test("removes C0, DEL and C1 controls, and a lone ESC", () => {
    expect(terminalSafe("a\x00b\x07c\td\ne\x7ff\x85g\x9bh\x1bi")).toBe("abcdefghi");
  });
  test("removes bidi controls and line separators", () => {
    const bidi = "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c\u2028\u2029";
    expect(terminalSafe(`x${bidi}y`)).toBe("xy");
    expect(terminalSafe("\u202eevil/")).toBe("evil/");
  });
  test("keeps ordinary text, other scripts and emoji", () => {
    expect(terminalSafe("claude-opus-4 │ ~/proj (main) ✻ 日本語 😀")).toBe("claude-opus-4 │ ~/proj (main) ✻ 日本語 😀");
  });
});
