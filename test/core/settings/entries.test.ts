import { describe, expect, test } from "bun:test";
import { ctxCommand, ctxHooks, parseCtxCommand } from "../../../src/core/settings/entries.ts";
import { shellQuote } from "../../../src/core/shell.ts";

describe("parseCtxCommand()", () => {
  test.each([
    ["/home/u/.local/bin/ctx track", "/home/u/.local/bin/ctx", "track"],
    ["ctx monitor", "ctx", "monitor"],
    ["'/opt/my tools/ctx' resume --hook", "/opt/my tools/ctx", "resume --hook"],
    ['"/opt/my tools/ctx" statusline', "/opt/my tools/ctx", "statusline"],
    ["'/it'\\''s/ctx' track", "/it's/ctx", "track"],
    ["C:\\tools\\ctx.exe track", "C:\\tools\\ctx.exe", "track"],
    ["  /bin/ctx   resume   --hook ", "/bin/ctx", "resume --hook"],
  ])("recognises %j", (command, binary, sub) => expect(parseCtxCommand(command)).toEqual({ binary, sub } as never));

  test.each([
    ["/usr/bin/ctx-wrapper track"],
    ["/bin/ctx track --session x"],
    ["/bin/ctx resume"],
    ["/bin/ctx install"],
    ["echo ctx track"],
    ["/bin/xctx track"],
    [""],
  ])("ignores %j", (command) => expect(parseCtxCommand(command)).toBeUndefined());

  test("ignores non-strings", () => {
    for (const v of [undefined, null, 1, {}, ["ctx", "track"]]) expect(parseCtxCommand(v)).toBeUndefined();
  });
});

describe("ctxCommand()", () => {
  test("round-trips through parseCtxCommand, quoting when needed", () => {
    for (const bin of ["/a/b/ctx", "/with space/ctx", "/it's $HOME/ctx", "/x;rm -rf/ctx"]) {
      expect(parseCtxCommand(ctxCommand(bin, "resume --hook"))).toEqual({ binary: bin, sub: "resume --hook" });
    }
    expect(ctxCommand("/a/b/ctx", "track")).toBe("/a/b/ctx track");
    expect(shellQuote("/x y/ctx")).toBe("'/x y/ctx'");
  });
});

describe("ctxHooks()", () => {
  test("claude: the issue's events, timeouts in seconds", () => {
    const hooks = ctxHooks("claude").map((h) => `${h.event}:${h.sub}`);
    expect(hooks).toEqual([
      "PostToolUse:monitor",
      "PostToolUse:track",
      "PostToolUseFailure:monitor",
      "PostToolUseFailure:track",
      "SessionStart:track",
      "SessionStart:resume --hook",
      "UserPromptSubmit:track",
      "Stop:track",
      "StopFailure:track",
      "PreCompact:track",
      "SessionEnd:track",
    ]);
    for (const h of ctxHooks("claude")) expect(h.timeout).toBeLessThanOrEqual(60);
  });

  test("gemini: Gemini event names, regex matchers, timeouts in milliseconds", () => {
    const hooks = ctxHooks("gemini");
    expect([...new Set(hooks.map((h) => h.event))]).toEqual([
      "AfterTool",
      "SessionStart",
      "BeforeAgent",
      "AfterAgent",
      "PreCompress",
      "SessionEnd",
    ]);
    expect(hooks.filter((h) => h.event === "AfterTool").map((h) => h.matcher)).toEqual([".*", ".*"]);
    for (const h of hooks) expect(h.timeout).toBeGreaterThanOrEqual(1000);
  });
});
