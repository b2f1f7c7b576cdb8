import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { chooseModel, has1m, modelArg, resolveWindow, type WindowEvidence } from "../../src/core/window.ts";
import { emptyTranscriptWindow, noteWindowLine } from "../../src/core/window-evidence.ts";

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
    expect(resolveWindow({ ...base, model: "claude-sonnet-4-5" })).toEqual({ window: 200_000, source: "model_name" });
    expect(resolveWindow({ ...base, model: "claude-sonnet-4-5", usedTokens: 250_000 }).window).toBe(1_000_000);
    // The client's table runs claude-opus-4-8 natively at 1M.
    expect(resolveWindow({ ...base, model: "claude-opus-4-8" })).toEqual({ window: 1_000_000, source: "model_name" });
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

/** The window evidence of a whole development-half transcript in bench/corpus (its README names each source). */
function corpusWindow(file: string, upTo = Number.POSITIVE_INFINITY) {
  const w = emptyTranscriptWindow();
  const text = readFileSync(join(import.meta.dir, "..", "..", "bench", "corpus", file), "utf8");
  for (const line of text.split("\n").slice(0, upTo)) if (line.trim()) noteWindowLine(w, JSON.parse(line));
  return w;
}

/** The window a typed finalize resolves for it: no running client, no status line, nothing configured. */
function typedWindow(file: string, client?: WindowEvidence["client"]) {
  const w = corpusWindow(file);
  return resolveWindow({
    model: w.model,
    clientVersion: w.clientVersion,
    autoCompaction: w.autoCompaction,
    ...(w.signed ? { signed: w.signed } : {}),
    usedTokens: w.peakTokens,
    remembered: {},
    configured: false,
    ...(client ? { client } : {}),
  });
}

describe("the window of a transcript whose client is not running (bench/corpus, development half)", () => {
  test("git-sync be1a18de: 2.1.109, claude-opus-4-6, 22k used: the client's default Opus, 1M", () => {
    const w = corpusWindow("git-sync/be1a18de-2cb7-4306-972b-1c58b5256718.jsonl");
    expect([w.clientVersion, w.model]).toEqual(["2.1.109", "claude-opus-4-6"]);
    expect(typedWindow("git-sync/be1a18de-2cb7-4306-972b-1c58b5256718.jsonl")).toEqual({
      window: 1_000_000,
      source: "client_default",
    });
  });

  test("git-sync 0dd6955a (2.1.140, claude-opus-4-7) and 665c2e57 (2.1.159, claude-opus-4-8): 1M", () => {
    expect(typedWindow("git-sync/0dd6955a-aa73-4e84-9d5f-f97ee290332e.jsonl").window).toBe(1_000_000);
    expect(typedWindow("git-sync/665c2e57-8c9f-4dd8-ba40-05c63f801620.jsonl").window).toBe(1_000_000);
  });

  test("the reverse: an older client's Opus 4.6 and a Sonnet 4.6 stay at 200k", () => {
    // 2.1.39, claude-opus-4-6, auto-compacted at 167k: the compaction decides.
    expect(typedWindow("spotter/258c7280-ae70-4798-800f-63464d01a85d.jsonl")).toEqual({
      window: 200_000,
      source: "compaction",
    });
    // 2.1.45, claude-opus-4-6, no compaction: before the 1M default (2.1.75).
    const old = typedWindow("context-evaluator/dbaea254-cab9-44ea-94ba-08b92be95cfd.jsonl");
    expect(old.window).toBe(200_000);
    // 2.1.47, claude-sonnet-4-6: 200k in the client's table, 1M only when asked for with [1m].
    expect(typedWindow("context-evaluator/04f9c6b0-e650-4aec-91c6-74cd2376fecc.jsonl").window).toBe(200_000);
  });

  test("the agent's commit trailer: '(1M context)' is 1M; a plain one rules out the 1M default for its model", () => {
    // git-sync 4f8f5e9b (2.1.183, claude-opus-4-8) signs "Claude Opus 4.8 (1M context)".
    expect(corpusWindow("git-sync/4f8f5e9b-9f90-4c22-88b9-988c55f45833.jsonl").signed).toEqual({
      model: "claude-opus-4-8",
      oneM: true,
    });
    expect(typedWindow("git-sync/4f8f5e9b-9f90-4c22-88b9-988c55f45833.jsonl")).toEqual({
      window: 1_000_000,
      source: "commit_trailer",
    });
    // agentv f6b7329a (2.1.62, claude-opus-4-6, 200k) signs "Claude Opus 4.6": plain.
    expect(corpusWindow("agentv/f6b7329a-914c-4f62-8090-4e29b032b173.jsonl").signed).toEqual({
      model: "claude-opus-4-6",
      oneM: false,
    });
    // oh-my-posh 223b2708 signs "Claude Fable 5": a plain id the client runs natively at 1M stays 1M.
    expect(typedWindow("oh-my-posh/223b2708-5340-4532-879b-05e5d9aa16f1.jsonl").window).toBe(1_000_000);
    // On a client with the 1M default, a plain trailer of the same model leaves the default out.
    const e = { ...base, usedTokens: 90_000, clientVersion: "2.1.84", model: "claude-opus-4-6" };
    expect(resolveWindow(e)).toEqual({ window: 1_000_000, source: "client_default" });
    expect(resolveWindow({ ...e, signed: { model: "claude-opus-4-6", oneM: false } })).toEqual({
      window: 200_000,
      source: "model_name",
    });
    // A trailer of another model (a /model switch since) says nothing about this one.
    expect(resolveWindow({ ...e, signed: { model: "claude-sonnet-4-6", oneM: false } }).source).toBe("client_default");
  });

  test("a trailer is read from the session's own Bash calls, and only when it names the request's model", () => {
    const bash = (model: string, command: string) => ({
      type: "assistant",
      version: "2.1.84",
      message: {
        model,
        usage: { input_tokens: 10, output_tokens: 1 },
        content: [{ type: "tool_use", id: "t1", name: "Bash", input: { command } }],
      },
    });
    const read = (...lines: Array<Record<string, unknown>>) => {
      const w = emptyTranscriptWindow();
      for (const l of lines) noteWindowLine(w, l);
      return w.signed;
    };
    const msg = (who: string) => `git commit -m "fix\n\nCo-Authored-By: ${who} <noreply@anthropic.com>"`;
    expect(read(bash("claude-opus-4-6", msg("Claude Opus 4.6 (1M context)")))).toEqual({
      model: "claude-opus-4-6",
      oneM: true,
    });
    expect(read(bash("claude-opus-4-6", msg("Claude Opus 4.5")))).toBeUndefined();
    expect(read(bash("claude-opus-4-6", msg("Claude Opus 4.6")), bash("claude-opus-4-6", "ls"))).toEqual({
      model: "claude-opus-4-6",
      oneM: false,
    });
    // A subagent's commit is its own model's.
    expect(read({ ...bash("claude-opus-4-6", msg("Claude Opus 4.6")), isSidechain: true })).toBeUndefined();
  });

  test("the user's /model answer: '(1M context)' is 1M, a plain name rules out the 1M default, a default says nothing", () => {
    // starcar 64c15364 (2.1.217), line 11: "Set model to \u001b[1mOpus 4.8 (1M context) (default)\u001b[22m and saved as …"
    // (its commits sign the same later on).
    expect(corpusWindow("starcar/64c15364-0933-4d6d-9b2e-d1ddbc918f9f.jsonl", 40).signed).toEqual({
      model: "claude-opus-4-8",
      oneM: true,
      by: "model_switch",
    });
    const stdout = (text: string) => ({
      type: "user",
      version: "2.1.84",
      message: { role: "user", content: `<local-command-stdout>Set model to ${text}</local-command-stdout>` },
    });
    const request = (model: string) => ({
      type: "assistant",
      version: "2.1.84",
      message: { model, usage: { input_tokens: 10, output_tokens: 1 }, content: [{ type: "text", text: "ok" }] },
    });
    const read = (...lines: Array<Record<string, unknown>>) => {
      const w = emptyTranscriptWindow();
      for (const l of lines) noteWindowLine(w, l);
      return w.signed;
    };
    const plain = { model: "claude-sonnet-4-6", oneM: false, by: "model_switch" as const };
    expect(
      read(stdout("\u001b[1mSonnet 4.6 (default)\u001b[22m for this session only"), request("claude-sonnet-4-6")),
    ).toEqual(plain);
    expect(read(stdout("Sonnet 4.6 and saved as your default"), request("claude-sonnet-4-6"))).toEqual(plain);
    // 2.1.332 with NO_COLOR writes the name in backticks (a try with the real client).
    expect(
      read(stdout("`Opus 4.6 (1M context)` and saved as your default for new sessions"), request("claude-opus-4-6")),
    ).toEqual({ model: "claude-opus-4-6", oneM: true, by: "model_switch" });
    // Not yet followed by a request, or followed by another model's (the name was not this one): nothing.
    expect(read(stdout("Opus 4.7 (1M context)"))).toBeUndefined();
    expect(read(stdout("Opus 4.7 (1M context)"), request("claude-opus-4-6"))).toBeUndefined();
    // A default whose variant the answer does not name clears what an earlier switch said.
    const opus1m = stdout("\u001b[1mOpus 4.6 (1M context)\u001b[22m");
    expect(read(opus1m, request("claude-opus-4-6"))?.oneM).toBe(true);
    expect(
      read(opus1m, request("claude-opus-4-6"), stdout("Default (Opus 4.6 · Most capable)"), request("claude-opus-4-6")),
    ).toBeUndefined();
    // The switch decides the window, ahead of the client's default.
    const e = { ...base, usedTokens: 90_000, clientVersion: "2.1.84", model: "claude-opus-4-6" };
    expect(resolveWindow({ ...e, signed: { model: "claude-opus-4-6", oneM: true, by: "model_switch" } })).toEqual({
      window: 1_000_000,
      source: "model_switch",
    });
    expect(resolveWindow({ ...e, signed: { model: "claude-opus-4-6", oneM: false, by: "model_switch" } }).window).toBe(
      200_000,
    );
  });

  test("a client that chose a model explicitly keeps its choice over the transcript's model", () => {
    const chosen = { found: true, model: "claude-opus-4-6", source: "client_args" as const };
    expect(typedWindow("git-sync/be1a18de-2cb7-4306-972b-1c58b5256718.jsonl", chosen).window).toBe(200_000);
  });
});

test("the client's default is an Opus 4.6 or later: a /model switch to an older Opus is not served by it", () => {
  const e = { ...base, clientVersion: "2.1.197", client: found(null) };
  expect(resolveWindow({ ...e, model: "claude-opus-4-6" })).toEqual({ window: 1_000_000, source: "client_default" });
  expect(resolveWindow({ ...e, model: "claude-opus-5-5" }).source).toBe("client_default");
  expect(resolveWindow({ ...e, model: "claude-opus-4-5-20251101" })).toEqual({ window: 200_000, source: "model_name" });
  expect(resolveWindow({ ...e, model: "claude-opus-4-1" }).window).toBe(200_000);
});
