import { describe, expect, test } from "bun:test";
import { ctxHooks } from "../../../src/core/settings/entries.ts";
import { installInto, removeFrom, SettingsShapeError } from "../../../src/core/settings/merge.ts";

const BIN = "/home/u/.local/bin/ctx";
const claude = { agent: "claude" as const, binary: BIN };

/** A realistic user file: other hooks on ctx's events and elsewhere, a foreign statusLine, other keys. */
function userSettings(): Record<string, unknown> {
  return {
    model: "opus",
    permissions: { allow: ["Bash(npm test:*)"], deny: [] },
    hooks: {
      PostToolUse: [{ matcher: "Edit|Write", hooks: [{ type: "command", command: "prettier --write", timeout: 30 }] }],
      PreToolUse: [{ matcher: "Bash", hooks: [{ type: "command", command: "guard.sh" }] }],
      Stop: [{ hooks: [{ type: "command", command: "notify-send done" }] }],
    },
    statusLine: { type: "command", command: "~/.claude/my-status.sh", padding: 1 },
    env: { FOO: "1" },
  };
}

function commandsOf(settings: Record<string, unknown>, event: string): string[] {
  const groups = ((settings.hooks as Record<string, unknown>)[event] ?? []) as { hooks: { command: string }[] }[];
  return groups.flatMap((g) => g.hooks.map((h) => h.command));
}

describe("installInto()", () => {
  test("adds every ctx hook with the binary's path and timeout, into empty settings", () => {
    const { settings, added, statusline } = installInto({}, claude);
    expect(statusline).toBe("added");
    expect(settings.statusLine).toEqual({ type: "command", command: `${BIN} statusline`, padding: 0 });
    expect(commandsOf(settings, "PostToolUse")).toEqual([`${BIN} monitor`, `${BIN} track`]);
    expect(commandsOf(settings, "PostToolUseFailure")).toEqual([`${BIN} monitor`, `${BIN} track`]);
    expect(commandsOf(settings, "SessionStart")).toEqual([`${BIN} track`, `${BIN} resume --hook`]);
    for (const e of ["UserPromptSubmit", "Stop", "PreCompact", "SessionEnd"])
      expect(commandsOf(settings, e)).toEqual([`${BIN} track`]);
    expect(added).toHaveLength(ctxHooks("claude").length);
    const post = (settings.hooks as any).PostToolUse[0];
    expect(post).toEqual({
      matcher: "*",
      hooks: [
        { type: "command", command: `${BIN} monitor`, timeout: 10 },
        { type: "command", command: `${BIN} track`, timeout: 30 },
      ],
    });
  });

  test("keeps every other key and hook, and chains a foreign statusLine: both show", () => {
    const before = userSettings();
    const { settings, statusline, otherStatusline, previousStatusline } = installInto(before, claude);
    expect(before).toEqual(userSettings()); // input not mutated
    expect(statusline).toBe("chained");
    expect(otherStatusline).toBe("~/.claude/my-status.sh");
    expect(previousStatusline).toEqual(userSettings().statusLine as Record<string, unknown>);
    expect(settings.statusLine).toEqual({
      type: "command",
      command: `${BIN} statusline --chain '~/.claude/my-status.sh'`,
      padding: 1,
    });
    // a second install keeps the chain
    expect(installInto(settings, claude).settings.statusLine).toEqual(settings.statusLine);
    expect(settings.model).toBe("opus");
    expect(settings.permissions).toEqual(userSettings().permissions);
    expect(settings.env).toEqual({ FOO: "1" });
    expect((settings.hooks as any).PreToolUse).toEqual((userSettings().hooks as any).PreToolUse);
    expect(commandsOf(settings, "PostToolUse")).toEqual(["prettier --write", `${BIN} monitor`, `${BIN} track`]);
    expect(commandsOf(settings, "Stop")).toEqual(["notify-send done", `${BIN} track`]);
    expect(Object.keys(settings)).toEqual(Object.keys(before));
  });

  test("--force-statusline replaces a foreign statusLine, --keep-statusline leaves it alone", () => {
    const forced = installInto(userSettings(), { ...claude, otherStatusline: "replace" });
    expect(forced.statusline).toBe("replaced");
    expect(forced.previousStatusline).toEqual(userSettings().statusLine as Record<string, unknown>);
    expect(forced.settings.statusLine).toEqual({ type: "command", command: `${BIN} statusline`, padding: 0 });
    const kept = installInto(userSettings(), { ...claude, otherStatusline: "keep" });
    expect(kept.statusline).toBe("kept-other");
    expect(kept.settings.statusLine).toEqual(userSettings().statusLine);
  });

  test("is idempotent: a second run changes nothing and reports nothing", () => {
    const once = installInto(userSettings(), claude).settings;
    const twice = installInto(once, claude);
    expect(twice.settings).toEqual(once);
    expect(JSON.stringify(twice.settings)).toBe(JSON.stringify(once));
    expect(twice.added).toEqual([]);
    expect(twice.updated).toEqual([]);
  });

  test("refreshes ctx entries in place when the binary moved, keeping their position and extra keys", () => {
    const old = installInto(userSettings(), { ...claude, binary: "/old/ctx" }).settings;
    (old.hooks as any).Stop[1].hooks[0].description = "mine";
    const moved = installInto(old, claude);
    expect(moved.added).toEqual([]);
    expect(moved.updated).toContain(`Stop: ${BIN} track`);
    expect(commandsOf(moved.settings, "Stop")).toEqual(["notify-send done", `${BIN} track`]);
    expect((moved.settings.hooks as any).Stop[1].hooks[0].description).toBe("mine");
  });

  test("gemini: Gemini events with millisecond timeouts and no statusLine", () => {
    const { settings, statusline } = installInto(
      { general: { vimMode: true } },
      { agent: "gemini", binary: BIN, otherStatusline: "replace" },
    );
    expect(statusline).toBe("none");
    expect(settings.statusLine).toBeUndefined();
    expect(settings.general).toEqual({ vimMode: true });
    expect((settings.hooks as any).AfterTool).toEqual([
      {
        matcher: ".*",
        hooks: [
          { type: "command", command: `${BIN} monitor`, timeout: 10000 },
          { type: "command", command: `${BIN} track`, timeout: 30000 },
        ],
      },
    ]);
    expect(Object.keys(settings.hooks as object)).toEqual([
      "AfterTool",
      "SessionStart",
      "BeforeAgent",
      "AfterAgent",
      "PreCompress",
      "SessionEnd",
    ]);
  });

  test("refuses hooks that are not an object, or an event that is not an array", () => {
    expect(() => installInto({ hooks: [] }, claude)).toThrow(SettingsShapeError);
    expect(() => installInto({ hooks: { Stop: {} } }, claude)).toThrow('"hooks.Stop" is not a JSON array');
  });
});

describe("removeFrom()", () => {
  test("a replaced statusLine comes back from install's record, exactly", () => {
    const before = {
      statusLine: { type: "command", command: "npx ccusage statusline", padding: 2, refreshInterval: 5 },
    };
    const forced = installInto(before, { ...claude, otherStatusline: "replace" });
    const back = removeFrom(forced.settings, forced.previousStatusline);
    expect(back.settings.statusLine).toEqual(before.statusLine);
    expect(back.restored).toEqual(before.statusLine);
    // a quoted command with quotes of its own survives the round trip through ctx's command
    const odd = { statusLine: { type: "command", command: `sh -c 'echo "it'"'"'s" | cat'` } };
    const chained = installInto(odd, claude).settings;
    expect(removeFrom(chained).settings).toEqual(odd);
  });

  test("install then uninstall gives back exactly the original settings", () => {
    for (const original of [
      userSettings(),
      {},
      { a: 1 },
      { hooks: { Stop: [{ hooks: [{ type: "command", command: "x" }] }] } },
    ]) {
      for (const agent of ["claude", "gemini"] as const) {
        const installed = installInto(original, { agent, binary: BIN });
        expect(removeFrom(installed.settings, installed.previousStatusline).settings).toEqual(original);
        // without install's record too: the chained command comes back from ctx's own command
        expect(removeFrom(installed.settings).settings).toEqual(original);
      }
    }
  });

  test("removes ctx hooks mixed into a user's group and leaves the rest of the group", () => {
    const settings = {
      hooks: {
        Stop: [
          {
            matcher: "",
            hooks: [
              { type: "command", command: "a" },
              { type: "command", command: "/x/ctx track" },
              { type: "command", command: "b" },
            ],
          },
        ],
      },
    };
    const { settings: out, removed } = removeFrom(settings);
    expect(out).toEqual({
      hooks: {
        Stop: [
          {
            matcher: "",
            hooks: [
              { type: "command", command: "a" },
              { type: "command", command: "b" },
            ],
          },
        ],
      },
    });
    expect(removed).toEqual(["Stop: /x/ctx track"]);
  });

  test("leaves look-alikes and a foreign statusLine alone", () => {
    const settings = {
      statusLine: { type: "command", command: "ctx-status" },
      hooks: {
        Stop: [
          {
            hooks: [
              { type: "command", command: "/x/ctx finalize" },
              { type: "command", command: "/x/notctx track" },
            ],
          },
        ],
      },
    };
    expect(removeFrom(settings)).toEqual({ settings, removed: [] });
  });

  test("removes ctx's statusLine and entries from an older path", () => {
    const { settings, removed } = removeFrom({
      statusLine: { type: "command", command: "/old/ctx statusline" },
      theme: "dark",
    });
    expect(settings).toEqual({ theme: "dark" });
    expect(removed).toEqual(["statusLine: /old/ctx statusline"]);
  });
});
