import { describe, expect, test } from "bun:test";
import { resolveConfig, envLayer } from "../../../src/core/config.ts";
import { initialState } from "../../../src/core/respawn/machine.ts";
import { buildSteps, chooseCycle } from "../../../src/core/respawn/plan.ts";
import { settingsFromConfig } from "../../../src/core/respawn/settings.ts";
import type { LastCycle, RespawnSettings } from "../../../src/core/respawn/types.ts";
import { settings } from "./sim.ts";

function choose(
  pct: number | null,
  over: Partial<RespawnSettings> = {},
  extra: { last?: LastCycle; noProgress?: number; awaiting?: boolean } = {},
) {
  const s = initialState(settings(over), 0);
  return chooseCycle({
    ...s,
    usage: pct === null ? null : { pct, at: 10 },
    lastCycle: extra.last ?? null,
    noProgress: extra.noProgress ?? 0,
    awaitingProgress: extra.awaiting ?? false,
  });
}
const compacted: LastCycle = { kind: "compact", endedAt: 5, trigger: 85, ok: true, freshAfter: 5 };

describe("chooseCycle", () => {
  test.each([
    ["no reading", null, {}, {}, null],
    ["below compact_at", 84, {}, {}, null],
    ["at compact_at", 85, {}, {}, { kind: "compact", trigger: 85 }],
    ["past restart_at, first compaction", 95, {}, {}, { kind: "compact", trigger: 85 }],
    ["compaction left usage high", 92, {}, { last: compacted, noProgress: 1 }, { kind: "restart", trigger: 90 }],
    ["compaction left usage between the two", 87, {}, { last: compacted, noProgress: 1 }, null],
    [
      "compaction worked, usage climbed again",
      86,
      {},
      { last: compacted, noProgress: 0 },
      { kind: "compact", trigger: 85 },
    ],
    ["compaction off, at restart_at", 90, { compactAt: false }, {}, { kind: "restart", trigger: 90 }],
    ["compaction off, below restart_at", 89, { compactAt: false }, {}, null],
    ["both off", 99, { compactAt: false, restartAt: false }, {}, null],
    ["stale reading after a cycle", 99, {}, { awaiting: true }, null],
    ["keep-working ignores usage", null, { mode: "keep-working" }, {}, { kind: "keep-working", trigger: null }],
  ] as const)("%s", (_name, pct, over, extra, expected) => {
    expect(choose(pct, over as Partial<RespawnSettings>, extra as never)).toEqual(expected as never);
  });
});

describe("buildSteps", () => {
  test("restart: finalize, /clear, optional /init, kickstart", () => {
    expect(buildSteps("restart", settings()).map((s) => s.kind)).toEqual(["finalize", "clear", "kickstart"]);
    expect(
      buildSteps("restart", settings({ sendInit: true, kickstartPrompt: "" })).map((s) => s.text ?? s.kind),
    ).toEqual(["finalize", "/clear", "/init"]);
  });
  test("compact sends the configured command line, then the continue prompt (none when empty)", () => {
    expect(buildSteps("compact", settings({ compactPrompt: "/compact keep X", compactContinuePrompt: "" }))).toEqual([
      { kind: "compact", text: "/compact keep X" },
    ]);
    expect(
      buildSteps("compact", settings({ compactPrompt: "/compact keep X", compactContinuePrompt: "Next: go" })),
    ).toEqual([
      { kind: "compact", text: "/compact keep X" },
      { kind: "kickstart", text: "Next: go" },
    ]);
    expect(settingsFromConfig(resolveConfig([])).compactContinuePrompt).toStartWith("Next: continue the work");
  });
});

describe("settingsFromConfig", () => {
  test("defaults: context mode, 85/90, 6 per hour, seconds turned into ms", () => {
    const s = settingsFromConfig(resolveConfig([]));
    expect(s).toMatchObject({
      mode: "context",
      compactAt: 85,
      restartAt: 90,
      maxCyclesPerHour: 6,
      cooldownMs: 60_000,
      sendClear: true,
      sendInit: false,
      autoAcceptPlans: false,
      aiCheck: false,
      quietMs: 2000,
      silenceMs: 30_000,
    });
    expect(s.compactPrompt.startsWith("/compact ")).toBe(true);
  });
  test("CTX_RESPAWN_* variables override, `off` disables thresholds and prompts", () => {
    const env = {
      CTX_RESPAWN_COMPACT_AT: "off",
      CTX_RESPAWN_RESTART_AT: "80",
      CTX_RESPAWN_MODE: "keep-working",
      CTX_RESPAWN_UPDATE_PROMPT: "off",
      CTX_RESPAWN_SEND_INIT: "true",
      CTX_RESPAWN_AUTO_ACCEPT_PLANS: "yes",
      CTX_RESPAWN_AI_CHECK: "on",
      CTX_RESPAWN_MAX_CYCLES_PER_HOUR: "2",
      CTX_RESPAWN_COOLDOWN_S: "5",
    };
    const s = settingsFromConfig(resolveConfig([envLayer(env)]));
    expect(s).toMatchObject({
      compactAt: false,
      restartAt: 80,
      mode: "keep-working",
      updatePrompt: "",
      sendInit: true,
      autoAcceptPlans: true,
      aiCheck: true,
      maxCyclesPerHour: 2,
      cooldownMs: 5000,
    });
  });
  test("respawn.strategy is the same switch as respawn.mode, and wins when set", () => {
    expect(settingsFromConfig(resolveConfig([envLayer({ CTX_RESPAWN_STRATEGY: "keep-working" })])).mode).toBe(
      "keep-working",
    );
    expect(
      settingsFromConfig(
        resolveConfig([envLayer({ CTX_RESPAWN_STRATEGY: "context", CTX_RESPAWN_MODE: "keep-working" })]),
      ).mode,
    ).toBe("context");
  });
});

describe("the kickstart prompt", () => {
  test("names what the agent was given, never a summary 'above' that the user cannot see", () => {
    const s = settingsFromConfig(resolveConfig([]));
    expect(s.kickstartPrompt).not.toContain("above");
    expect(s.kickstartPrompt).toContain("handoff summary ctx gave you when this session started");
  });
});
