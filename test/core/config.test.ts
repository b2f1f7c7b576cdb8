import { describe, expect, test } from "bun:test";
import { defaults, envLayer, flatten, resolveConfig, resolveLayers } from "../../src/core/config.ts";
import { keyPosition, ladderProblems, suggestKey, yamlErrorPosition } from "../../src/core/config-check.ts";
import { envName } from "../../src/core/config-schema.ts";

describe("envName()", () => {
  test.each([
    ["levels.auto_pause", "CTX_LEVELS_AUTO_PAUSE"],
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
    expect(d["levels.warning"]).toBe(65);
    expect(d["levels.critical"]).toBe(75);
    expect(d["levels.auto_pause"]).toBe(90);
    expect(d["monitor.debounce_calls"]).toBe(5);
    expect(d["monitor.bridge_max_age_s"]).toBe(60);
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
    expect(resolveConfig([{ "levels.warning": "off" }])["levels.warning"]).toBe(false);
    expect(resolveConfig([{ "levels.warning": false }])["levels.warning"]).toBe(false);
    expect(resolveConfig([envLayer({ CTX_LEVELS_AUTO_PAUSE: "OFF" })])["levels.auto_pause"]).toBe(false);
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

describe("deprecated level keys", () => {
  test("are read, converted to the ladder, and reported with the key to use", () => {
    const r = resolveLayers([
      { origin: "user", source: "/u.yaml", values: { "monitor.warning_remaining": 40, "track.auto_pause": 88 } },
      { origin: "environment", source: "environment", values: envLayer({ CTX_MONITOR_CRITICAL_REMAINING: "20" }) },
    ]);
    expect(r.config["levels.warning"]).toBe(60);
    expect(r.config["levels.critical"]).toBe(80);
    expect(r.config["levels.auto_pause"]).toBe(88);
    expect(r.origins["levels.warning"]).toEqual({
      origin: "user",
      source: "/u.yaml",
      via: "monitor.warning_remaining",
    });
    expect(r.origins["levels.critical"]).toMatchObject({ origin: "environment", via: "monitor.critical_remaining" });
    const deprecated = r.problems.filter((p) => p.deprecated).map((p) => `${p.key}: ${p.message}`);
    expect(deprecated).toEqual([
      "monitor.warning_remaining: deprecated: use levels.warning: 60",
      "track.auto_pause: deprecated: use levels.auto_pause: 88",
      "monitor.critical_remaining: deprecated: use levels.critical: 80 (CTX_LEVELS_CRITICAL=80)",
    ]);
  });
  test("the new key wins over an old one in the same layer; off stays off", () => {
    const cfg = resolveConfig([{ "levels.warning": 70, "track.warning": 80, "monitor.critical_remaining": "off" }]);
    expect(cfg["levels.warning"]).toBe(70);
    expect(cfg["levels.critical"]).toBe(false);
  });
});

describe("checks", () => {
  test("unknown keys get a did-you-mean", () => {
    expect(suggestKey("monitor.debounce_cals")).toBe("monitor.debounce_calls");
    expect(suggestKey("monitor.warning_remainin")).toBe("levels.warning (formerly monitor.warning_remaining)");
    expect(suggestKey("levels.warn")).toBe("levels.warning");
    expect(suggestKey("totally.unrelated_thing_here")).toBeUndefined();
    const r = resolveLayers([{ origin: "project", source: "/p", values: { "levels.critcal": 80 } }]);
    expect(r.problems).toEqual([
      { source: "/p", key: "levels.critcal", message: "unknown key; did you mean levels.critical?" },
    ]);
  });
  test("wrong types and values out of range are problems; the default stays", () => {
    const r = resolveLayers([
      {
        origin: "user",
        source: "/u",
        values: { "statusline.display": "weird", "levels.warning": 200, "monitor.debounce_calls": -1 },
      },
    ]);
    expect(r.config["statusline.display"]).toBe("raw");
    expect(r.config["levels.warning"]).toBe(65);
    expect(r.problems.map((p) => p.message)).toEqual([
      'bad value "weird": want one of raw, usable, footer, both',
      "out of range: 200; want a used % (0 to 100) or tokens (130k)",
      "out of range: -1; want 0 or more",
    ]);
  });
  test("an inconsistent ladder is named", () => {
    const cfg = resolveConfig([{ "levels.warning": 80, "levels.critical": 70, "respawn.compact_at": 95 }]);
    expect(ladderProblems(cfg)).toEqual([
      "levels.warning (80%) must be below levels.critical (70%)",
      "respawn.compact_at (95) must not be above respawn.restart_at (90)",
    ]);
    expect(ladderProblems(defaults())).toEqual([]);
    expect(ladderProblems(resolveConfig([{ "levels.critical": "off", "levels.warning": 80 }]))).toEqual([]);
  });
  test("YAML errors and keys are located by line and column", () => {
    const parse = (t: string) => Bun.YAML.parse(t);
    expect(yamlErrorPosition("monitor:\n  debounce_calls: 3\n  x: [1,2\nfoo: 1\n", parse)).toEqual({
      line: 3,
      column: 3,
    });
    expect(yamlErrorPosition("a: 1\n b: 2\n", parse)).toEqual({ line: 2, column: 2 });
    expect(yamlErrorPosition("a: 1\n", parse)).toBeUndefined();
    const text = "statusline:\n  display: weird\nmonitor:\n  warning_remainin: 3\nlevels.warning: 200\n";
    expect(keyPosition(text, "monitor.warning_remainin")).toEqual({ line: 4, column: 3 });
    expect(keyPosition(text, "statusline.display")).toEqual({ line: 2, column: 3 });
    expect(keyPosition(text, "levels.warning")).toEqual({ line: 5, column: 1 });
  });
});
