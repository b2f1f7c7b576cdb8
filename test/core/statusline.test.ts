import { describe, expect, test } from "bun:test";
import { defaults, resolveConfig } from "../../src/core/config.ts";
import { bar, bridgeOf, renderStatus, statusInput } from "../../src/core/statusline.ts";

/** PROTOCOL.md's recorded statusLine payload (v2.1.197). */
const RECORDED = {
  session_id: "abc",
  transcript_path: "/h/.claude/projects/-p/abc.jsonl",
  cwd: "/work/proj",
  model: { id: "claude-opus-4-8[1m]", display_name: "Opus 4.8 (1M context)" },
  workspace: { current_dir: "/work/proj", project_dir: "/work/proj", added_dirs: [] },
  context_window: {
    total_input_tokens: 171050,
    total_output_tokens: 20,
    context_window_size: 1000000,
    current_usage: {
      input_tokens: 50,
      output_tokens: 20,
      cache_creation_input_tokens: 1000,
      cache_read_input_tokens: 170000,
    },
    used_percentage: 17,
    remaining_percentage: 83,
  },
};
const cfg = defaults();

describe("statusInput()", () => {
  test("takes Claude Code's own percentage and window", () => {
    const s = statusInput(RECORDED, cfg);
    expect(s.context).toEqual({ usedTokens: 171050, windowSize: 1_000_000, usedPct: 17, remainingPct: 83 });
    expect(s.modelName).toBe("Opus 4.8 (1M context)");
  });
  test("keeps Claude Code's percentage even where our rounding could differ", () => {
    const s = statusInput({ ...RECORDED, context_window: { ...RECORDED.context_window, used_percentage: 18 } }, cfg);
    expect(s.context?.usedPct).toBe(18);
  });
  test("null usage before the first reply means no reading", () => {
    const s = statusInput(
      {
        ...RECORDED,
        context_window: {
          context_window_size: 200000,
          current_usage: null,
          used_percentage: null,
          remaining_percentage: null,
        },
      },
      cfg,
    );
    expect(s.context).toBeUndefined();
  });
  test("without used_percentage (old clients) the math is ours", () => {
    const s = statusInput(
      { model: { id: "claude-sonnet-4-5" }, context_window: { current_usage: { input_tokens: 130000 } } },
      cfg,
    );
    expect(s.context).toEqual({ usedTokens: 130000, windowSize: 200000, usedPct: 65, remainingPct: 35 });
  });
  test("garbage fields are ignored", () => {
    expect(statusInput({ model: 5, workspace: "x", context_window: [1] } as never, cfg)).toEqual({
      sessionId: undefined,
      modelId: undefined,
      modelName: undefined,
      projectDir: undefined,
      cwd: undefined,
      transcriptPath: undefined,
    });
  });
});

describe("bridgeOf()", () => {
  test("has the GSD fields and ours", () => {
    const b = bridgeOf(statusInput(RECORDED, cfg), 1_700_000_000_500);
    expect(b).toEqual({
      session_id: "abc",
      remaining_percentage: 83,
      used_pct: 17,
      timestamp: 1_700_000_000,
      used_tokens: 171050,
      context_window_size: 1_000_000,
      model: "claude-opus-4-8[1m]",
      cwd: "/work/proj",
      transcript_path: "/h/.claude/projects/-p/abc.jsonl",
    });
  });
  test("needs a session and a reading", () => {
    expect(bridgeOf({ context: undefined, sessionId: "a" }, 0)).toBeUndefined();
  });
});

describe("renderStatus()", () => {
  const sonnet = {
    ...RECORDED,
    model: { id: "claude-sonnet-4-5", display_name: "Sonnet 4.5" },
    context_window: { context_window_size: 200000, current_usage: { input_tokens: 130000 }, used_percentage: 65 },
  };
  test("plain: model │ dir (branch) │ bar pct tokens", () => {
    expect(renderStatus(statusInput(sonnet, cfg), cfg, { color: false, branch: "main" })).toBe(
      "Sonnet 4.5 │ proj (main) │ ███████░░░ 65% 130k/200k",
    );
  });
  test("colours by level", () => {
    const line = renderStatus(statusInput(sonnet, cfg), cfg, { color: true });
    expect(line).toContain("\x1b[33m███████░░░ 65%");
    const low = {
      ...sonnet,
      context_window: { ...sonnet.context_window, used_percentage: 10, current_usage: { input_tokens: 20000 } },
    };
    expect(renderStatus(statusInput(low, cfg), cfg, { color: true })).toContain("\x1b[32m");
    const high = {
      ...sonnet,
      context_window: { ...sonnet.context_window, used_percentage: 80, current_usage: { input_tokens: 160000 } },
    };
    expect(renderStatus(statusInput(high, cfg), cfg, { color: true })).toContain("\x1b[31m");
  });
  test("the one ladder: yellow from levels.warning, red from critical, red and paused at auto_pause", () => {
    const at = (pct: number, c = cfg) =>
      renderStatus(
        statusInput(
          {
            ...sonnet,
            context_window: {
              ...sonnet.context_window,
              used_percentage: pct,
              current_usage: { input_tokens: pct * 2000 },
            },
          },
          c,
        ),
        c,
        { color: true },
      );
    expect(at(64)).toContain("\x1b[32m");
    expect(at(74)).toContain("\x1b[33m");
    expect(at(75)).toContain("\x1b[31m█");
    // auto_pause (90 %) comes at the 200k window's auto-compact point: 167k, 83.5 %
    expect(at(83)).not.toContain("paused");
    expect(at(84)).toContain("\x1b[31mpaused\x1b[0m");
    const moved = resolveConfig([{ "levels.warning": 50, "levels.critical": 60, "levels.auto_pause": 70 }]);
    expect(at(55, moved)).toContain("\x1b[33m");
    expect(at(70, moved)).toContain("paused");
  });
  test("usable and both display modes", () => {
    const both = resolveConfig([{ "statusline.display": "both" }]);
    expect(renderStatus(statusInput(sonnet, both), both, { color: false })).toBe(
      "Sonnet 4.5 │ proj │ ███████░░░ 65% (78% usable) 130k/200k",
    );
    const usable = resolveConfig([{ "statusline.display": "usable" }]);
    expect(renderStatus(statusInput(sonnet, usable), usable, { color: false })).toContain("████████░░ 78%");
  });
  test("footer display matches the client's own footer", () => {
    const footer = resolveConfig([{ "statusline.display": "footer" }]);
    const p = {
      ...sonnet,
      context_window: { context_window_size: 200000, current_usage: { input_tokens: 151050 }, used_percentage: 76 },
    };
    expect(renderStatus(statusInput(p, footer), footer, { color: false })).toContain("████████░░ 83% 151k/200k");
  });
  test("no reading yet shows dashes", () => {
    expect(renderStatus({ modelName: "Sonnet 4.5" }, cfg, { color: false })).toBe("Sonnet 4.5 │ ░░░░░░░░░░ --%");
  });
  test("control characters in names never reach the terminal", () => {
    const evil = { ...sonnet, model: { display_name: "Son\x1b[2Jnet" }, workspace: { project_dir: "/x/a\x07b" } };
    const line = renderStatus(statusInput(evil, cfg), cfg, { color: false });
    expect(line).not.toContain("\x1b");
    expect(line).not.toContain("\x07");
  });
});

test.each([
  [0, "░░░░░░░░░░"],
  [65, "███████░░░"],
  [100, "██████████"],
  [150, "██████████"],
  [-3, "░░░░░░░░░░"],
])("bar(%d) is %s", (pct, want) => expect(bar(pct)).toBe(want));
