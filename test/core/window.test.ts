import { describe, expect, test } from "bun:test";
import { chooseModel, has1m, modelArg, resolveWindow, type WindowEvidence } from "../../src/core/window.ts";

const base: WindowEvidence = { remembered: {}, configured: false, usedTokens: 150_000 };
const found = (model: string | null, source: "client_args" | "client_env" | "settings" | null = null) => ({
  found: true,
  model,
  source: model ? (source ?? "client_args") : null,
});

describe("resolveWindow: the sources in the issue's order", () => {
  test("1. a status-line payload for this session wins over everything", () => {
    const r = resolveWindow({
      ...base,
      statusline: 200_000,
      model: "claude-opus-4-8",
      remembered: { "claude-opus-4-8[1m]": 1_000_000 },
      client: found(null),
      configured: 500_000,
    });
    expect(r).toEqual({ window: 200_000, source: "statusline" });
  });

  test("1. a window remembered for the same model id comes next", () => {
    const e = { ...base, model: "claude-sonnet-4-5", remembered: { "claude-sonnet-4-5": 200_000 } };
    expect(resolveWindow({ ...e, client: found("claude-sonnet-4-5[1m]") }).source).toBe("client_args");
    expect(resolveWindow({ ...e, client: found("claude-sonnet-4-5") })).toEqual({
      window: 200_000,
      source: "remembered",
    });
    expect(resolveWindow({ ...e, configured: 300_000 })).toEqual({ window: 200_000, source: "remembered" });
  });

  test("1. the remembered id carries [1m] when the client was asked for a 1M model, as the status line's id does", () => {
    const remembered = { "claude-opus-4-8": 200_000, "claude-opus-4-8[1m]": 1_000_000 };
    const e = { ...base, model: "claude-opus-4-8", remembered };
    expect(resolveWindow({ ...e, client: found("opus[1m]") })).toEqual({ window: 1_000_000, source: "remembered" });
    expect(resolveWindow({ ...e, client: found(null) })).toEqual({ window: 1_000_000, source: "remembered" });
    expect(resolveWindow({ ...e, client: found("opus") })).toEqual({ window: 200_000, source: "remembered" });
  });

  test("2. what the client was asked for: [1m] is 1M, a plain id its own window", () => {
    const e = { ...base, model: "claude-opus-4-8", clientVersion: "2.1.197" };
    expect(resolveWindow({ ...e, client: found("opus[1m]", "client_args") })).toEqual({
      window: 1_000_000,
      source: "client_args",
    });
    expect(resolveWindow({ ...e, client: found("sonnet[1m]", "client_env") }).source).toBe("client_env");
    expect(resolveWindow({ ...e, client: found("opus[1m]", "settings") })).toEqual({
      window: 1_000_000,
      source: "settings",
    });
    expect(resolveWindow({ ...e, client: found("opus") })).toEqual({ window: 200_000, source: "client_args" });
    expect(resolveWindow({ ...e, model: "claude-sonnet-4-5", client: found("claude-sonnet-4-5") }).window).toBe(
      200_000,
    );
  });

  test("2. newer clients run the newer models with 1M natively (observed on 2.1.328, not on 2.1.197)", () => {
    const e = { ...base, model: "claude-opus-5-5", client: found("opus") };
    expect(resolveWindow({ ...e, clientVersion: "2.1.328" }).window).toBe(1_000_000);
    expect(resolveWindow({ ...e, clientVersion: "2.2.0" }).window).toBe(1_000_000);
    expect(resolveWindow({ ...e, clientVersion: "2.1.197" }).window).toBe(200_000);
    expect(resolveWindow({ ...e, clientVersion: undefined }).window).toBe(200_000);
    const old = { ...base, model: "claude-sonnet-4-5", client: found("claude-sonnet-4-5"), clientVersion: "2.1.328" };
    expect(resolveWindow(old).window).toBe(200_000);
  });

  test("3. the client's default when nothing chose a model: 1M, unless the transcript shows a non-Opus model", () => {
    expect(resolveWindow({ ...base, model: "claude-opus-4-8", client: found(null) })).toEqual({
      window: 1_000_000,
      source: "client_default",
    });
    expect(resolveWindow({ ...base, model: "claude-opus-5-5", client: found(null) }).source).toBe("client_default");
    expect(resolveWindow({ ...base, client: found(null) }).source).toBe("client_default");
    // A /model switch to another family: the default does not describe the session.
    expect(resolveWindow({ ...base, model: "claude-sonnet-4-5", client: found(null) }).source).toBe("model_name");
  });

  test("4. context.window_size when the client is unknown", () => {
    const e = { ...base, model: "claude-opus-4-8", configured: 400_000 as const };
    expect(resolveWindow(e)).toEqual({ window: 400_000, source: "config" });
    expect(resolveWindow({ ...e, client: { found: false, model: null, source: null } }).source).toBe("config");
  });

  test("5. the model-name rule last", () => {
    expect(resolveWindow({ ...base, model: "claude-opus-4-8" })).toEqual({ window: 200_000, source: "model_name" });
    expect(resolveWindow({ ...base, model: "claude-opus-4-8", usedTokens: 250_000 }).window).toBe(1_000_000);
    expect(resolveWindow({ ...base, model: "gemini-2.5-flash" }).window).toBe(1_048_576);
  });
});

describe("chooseModel: Claude Code's own order", () => {
  const none = {};
  test("--model beats ANTHROPIC_MODEL beats settings (local, project, user)", () => {
    const settings = { user: "u", project: "p", local: "l" };
    expect(chooseModel(["--model", "opus[1m]"], { ANTHROPIC_MODEL: "x" }, settings)).toEqual({
      model: "opus[1m]",
      source: "client_args",
    });
    expect(chooseModel([], { ANTHROPIC_MODEL: "x" }, settings)).toEqual({ model: "x", source: "client_env" });
    expect(chooseModel([], {}, settings)).toEqual({ model: "l", source: "settings" });
    expect(chooseModel([], {}, { user: "u", project: "p" })).toEqual({ model: "p", source: "settings" });
    expect(chooseModel([], {}, { user: "u" })).toEqual({ model: "u", source: "settings" });
    expect(chooseModel(["-p", "hi"], {}, none)).toEqual({ model: null, source: null });
  });

  test("alias variables replace an alias and keep [1m]; the Opus one stands for the default", () => {
    const env = { ANTHROPIC_DEFAULT_OPUS_MODEL: "claude-opus-4-8", ANTHROPIC_DEFAULT_SONNET_MODEL: "my-sonnet" };
    expect(chooseModel(["--model", "opus[1m]"], env, none)).toEqual({
      model: "claude-opus-4-8[1m]",
      source: "client_env",
    });
    expect(chooseModel(["--model", "sonnet"], env, none)).toEqual({ model: "my-sonnet", source: "client_env" });
    expect(chooseModel(["--model", "claude-x"], env, none)).toEqual({ model: "claude-x", source: "client_args" });
    // Observed: ANTHROPIC_DEFAULT_OPUS_MODEL=claude-opus-4-6 and no model → claude-opus-4-6[1m], 1M
    // (`implicit`: the [1m] is the default's, so a client older than that default does not get it).
    expect(chooseModel([], { ANTHROPIC_DEFAULT_OPUS_MODEL: "claude-opus-4-6" }, none)).toEqual({
      model: "claude-opus-4-6[1m]",
      source: "client_env",
      implicit: true,
    });
  });

  test("modelArg reads both spellings, the last wins, nothing after --", () => {
    expect(modelArg(["--model=sonnet[1m]"])).toBe("sonnet[1m]");
    expect(modelArg(["--model", "a", "--model", "b"])).toBe("b");
    expect(modelArg(["--", "--model", "a"])).toBeUndefined();
    expect(modelArg(["--model"])).toBeUndefined();
    expect(has1m("opus[1M]")).toBe(true);
    expect(has1m("opus")).toBe(false);
  });
});
