import { describe, expect, test } from "bun:test";
import { classifyScreen, isCompletionLine } from "../../src/core/screen.ts";

const RULE = "─".repeat(60);
const box = (input = "") => `${RULE}\n❯ ${input}\n${RULE}`;
const screen = (...parts: string[]) => parts.join("\n");

// Screens as captured from the real client 2.1.197 (trimmed), ANSI included where it matters.
const BUSY = screen(
  "❯ hello there",
  "\x1b[31m\x1b[49m·\x1b[39m \x1b[31mPropagating… \x1b[39m",
  box(),
  "  esc\x1b[2m to \x1b[22minterrupt · ← for agents",
);
const FINISHED = screen(
  "❯ hello there",
  "● working on it",
  "✻ Churned for 4s",
  box("\u00a0"),
  "  ? for shortcuts · ← for agents      83% context used",
);
const PERMISSION = screen(
  "❯ fetch it",
  "● Fetch(http://example.com)",
  RULE,
  " Fetch",
  '   url: "http://example.com"',
  " Do you want to allow Claude to fetch this content?",
  " ❯ 1. Yes",
  "   2. Yes, and don't ask again for example.com",
  "   3. No, and tell Claude what to do differently (esc)",
);
const PLAN = screen(
  RULE,
  " Ready to code?",
  " Here is Claude's plan:",
  "  1. Write the file",
  " Would you like to proceed?",
  " ❯ 1. Yes, and auto-accept edits",
  "   2. Yes, and manually approve edits",
  "   3. No, keep planning",
);
const QUESTION = screen(
  RULE,
  " ☐ Database",
  " Which database should we use?",
  " ❯ 1. Postgres",
  "   2. SQLite",
  "   3. Type something.",
  " Enter to select · ↑/↓ to navigate · Esc to cancel",
);
const STARTED = screen(
  "╭─── Claude Code v2.1.197 ───╮",
  "╰────────────────────────────╯",
  box(),
  "  ? for shortcuts · ← for agents",
);

describe("classifyScreen", () => {
  test("busy: the spinner line and the `esc to interrupt` footer split by colour codes", () => {
    expect(classifyScreen(BUSY)).toMatchObject({ busy: true, finished: false });
  });
  test("busy: a spinner line alone, with any glyph of the rotation", () => {
    for (const g of ["·", "✢", "✳", "✶", "✻", "✽"])
      expect(classifyScreen(screen(`${g} Galloping… (3s · ↓ 12 tokens)`, box())).busy).toBe(true);
  });
  test("finished: completion line and the empty input box", () => {
    expect(classifyScreen(FINISHED)).toEqual({
      busy: false,
      finished: true,
      completion: "✻ Churned for 4s",
      prompt: true,
    });
  });
  test("finished: a verb never seen before, and long durations", () => {
    for (const line of [
      "✻ Zorblaxed for 0s",
      "✻ Flibbertigibbeted for 1m 2s",
      "✻ Gekocht for 1h 3m 20s",
      "✻ Sautéed for 12s",
    ]) {
      expect(classifyScreen(screen("● ok", line, box())).completion).toBe(line);
      expect(isCompletionLine(line)).toBe(true);
    }
  });
  test("a spinner line is not a completion line, and prose with 'for' is not either", () => {
    expect(isCompletionLine("✻ Baking… (2s)")).toBe(false);
    expect(isCompletionLine("● Waited for 5s then retried")).toBe(false);
    expect(isCompletionLine("✻ Worked for a while")).toBe(false);
  });
  test("prompt: the fresh client shows the empty box, not finished, not busy", () => {
    expect(classifyScreen(STARTED)).toEqual({ busy: false, finished: false, prompt: true });
  });
  test("prompt: text typed in the box is not an empty prompt", () => {
    expect(classifyScreen(screen("✻ Baked for 0s", box("half-typed"))).prompt).toBe(false);
  });
  test.each([
    ["permission", PERMISSION],
    ["plan", PLAN],
    ["question", QUESTION],
  ])("blocker: %s dialog owns the keyboard, no prompt", (kind, text) => {
    const s = classifyScreen(text);
    expect(s.blocker).toBe(kind as "permission");
    expect(s.prompt).toBe(false);
  });
  test("the empty box after /clear is a prompt without completion", () => {
    expect(classifyScreen(screen("❯ /clear", box(), "  ? for shortcuts"))).toEqual({
      busy: false,
      finished: false,
      prompt: true,
    });
  });
});
