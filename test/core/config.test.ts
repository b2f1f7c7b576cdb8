import { describe, expect, test } from "bun:test";
import { defaults, envLayer, flatten, resolveConfig } from "../../src/core/config.ts";
import { envName } from "../../src/core/config-schema.ts";

describe("envName()", () => {
  test.each([
    ["monitor.warning_remaining", "CTX_MONITOR_WARNING_REMAINING"],
    ["a.b_c", "CTX_A_B_C"],
    ["context.window_size", "CTX_CONTEXT_WINDOW_SIZE"],
  ])("%s → %s", (key, want) => expect(envName(key)).toBe(want));
});

describe("flatten()", () => {
  test("nested and dotted keys give the same result", () => {
    expect(flatten({ monitor: { debounce_calls: 3 } })).toEqual({ "monitor.debounce_calls": 3 });
    expect(flatten({ "monitor.debounce_calls": 3 })).toEqual({ "monitor.debounce_calls": 3 });
  });
  test("non-objects flatten to nothing", () => {
    expect(flatten("x")).toEqual({});
    expect(flatten([1, 2])).toEqual({});
    expect(flatten(null)).toEqual({});
  });
});

describe("resolveConfig()", () => {
  test("defaults are the documented ones", () => {
    const d = defaults();
    expect(d["monitor.warning_remaining"]).toBe(35);
    expect(d["monitor.critical_remaining"]).toBe(25);
    expect(d["monitor.debounce_calls"]).toBe(5);
    expect(d["monitor.bridge_max_age_s"]).toBe(60);
    expect(d["track.caution"]).toBe(70);
    expect(d["track.auto_pause"]).toBe(90);
  });
  test("later layers win: user < project < env", () => {
    const cfg = resolveConfig([
      { "monitor.debounce_calls": 3 },
      { "monitor.debounce_calls": 4 },
      envLayer({ CTX_MONITOR_DEBOUNCE_CALLS: "7" }),
    ]);
    expect(cfg["monitor.debounce_calls"]).toBe(7);
  });
  test("off disables a threshold, from YAML or env", () => {
    expect(resolveConfig([{ "monitor.warning_remaining": "off" }])["monitor.warning_remaining"]).toBe(false);
    expect(resolveConfig([{ "monitor.warning_remaining": false }])["monitor.warning_remaining"]).toBe(false);
    expect(resolveConfig([envLayer({ CTX_TRACK_CAUTION: "OFF" })])["track.caution"]).toBe(false);
  });
  test("bad values and unknown keys are skipped and reported", () => {
    const warnings: string[] = [];
    const cfg = resolveConfig(
      [
        {
          "monitor.debounce_calls": "many",
          "monitor.nope": 1,
          "statusline.display": "fancy",
          "statusline.git_branch": "maybe",
        },
      ],
      (m) => warnings.push(m),
    );
    expect(cfg["monitor.debounce_calls"]).toBe(5);
    expect(cfg["statusline.display"]).toBe("raw");
    expect(cfg["statusline.git_branch"]).toBe(true);
    expect(warnings).toHaveLength(4);
  });
  test("numbers are accepted as strings, booleans as words", () => {
    const cfg = resolveConfig([
      { "context.window_size": "500000", "statusline.git_branch": "no", "statusline.display": "both" },
    ]);
    expect(cfg["context.window_size"]).toBe(500000);
    expect(cfg["statusline.git_branch"]).toBe(false);
    expect(cfg["statusline.display"]).toBe("both");
  });
  test("negative numbers are rejected", () => {
    expect(resolveConfig([{ "monitor.debounce_calls": -1 }])["monitor.debounce_calls"]).toBe(5);
  });
});
