/**
 * The window of an older client's session comes from evidence about that session (issue 20), not
 * from the default of the client that runs the hook. The evidence is read from real transcript
 * excerpts: github.com/marot/spotter, MIT, commit 8cc42b0bd39d04e71e509d7d58e6782ab435329f
 * (test/fixtures/transcripts/spotter-window/README.md says which lines).
 */
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  compactionWindow,
  emptyTranscriptWindow,
  noteWindowLine,
  type TranscriptWindow,
} from "../../src/core/window-evidence.ts";
import { chooseModel, resolveWindow, type ClientChoice, type WindowEvidence } from "../../src/core/window.ts";

const DIR = join(import.meta.dir, "..", "fixtures", "transcripts", "spotter-window");
/** The evidence `ctx finalize` gathers from a transcript's lines (the first `upTo` of them). */
function evidenceOf(file: string, upTo = Number.POSITIVE_INFINITY): TranscriptWindow {
  const w = emptyTranscriptWindow();
  const lines = readFileSync(join(DIR, file), "utf8").split("\n").filter(Boolean);
  for (const line of lines.slice(0, upTo)) noteWindowLine(w, JSON.parse(line));
  return w;
}
const AUTO = "auto-compact-200k.jsonl";
const SWITCH = "model-switch-manual-compact.jsonl";

/** What a current Claude Code (2.1.197, no --model) running the hook shows ctx: its default is a 1M Opus. */
const currentClient: ClientChoice = { found: true, model: null, source: null };
/** What its status line remembered on this machine (a current client's default model id carries [1m]). */
const remembered = { "claude-opus-4-8[1m]": 1_000_000, "claude-opus-4-6[1m]": 1_000_000 };
/** The resolver's input for a transcript read by finalize, under the current client. */
function underCurrentClient(w: TranscriptWindow, over: Partial<WindowEvidence> = {}): WindowEvidence {
  return {
    model: w.model,
    clientVersion: w.clientVersion,
    autoCompaction: w.autoCompaction,
    usedTokens: w.peakTokens,
    remembered,
    client: currentClient,
    configured: false,
    ...over,
  };
}

describe("what a real transcript tells about its window", () => {
  test("the 2.1.39 session that compacted by itself: version, model, peak and the compaction point", () => {
    expect(evidenceOf(AUTO)).toEqual({
      clientVersion: "2.1.39",
      model: "claude-opus-4-6",
      peakTokens: 166_759,
      autoCompaction: { preTokens: 167_094, model: "claude-opus-4-6" },
    });
  });

  test("a compaction the user typed (/compact, trigger manual) is no evidence; the newest model counts", () => {
    const w = evidenceOf(SWITCH);
    expect(w).toEqual({ clientVersion: "2.1.39", model: "claude-opus-4-6", peakTokens: 141_787 });
    // Before the switch back, the session ran on Haiku (the peak came from it).
    expect(evidenceOf(SWITCH, 24).model).toBe("claude-haiku-4-5-20251001");
  });
});

describe("resolveWindow: each kind of evidence about the session", () => {
  test("the automatic compaction at 167k decides 200k, over the current client's 1M default and memory", () => {
    const e = underCurrentClient(evidenceOf(AUTO));
    expect(resolveWindow(e)).toEqual({ window: 200_000, source: "compaction" });
    // Even a 1M model the running client was asked for does not describe a session that compacted at 167k.
    const asked = { found: true, model: "opus[1m]", source: "client_args" as const };
    expect(resolveWindow({ ...e, client: asked })).toEqual({ window: 200_000, source: "compaction" });
    // Without the compaction the same session would be judged by the running client: what issue 20 saw.
    expect(resolveWindow({ ...e, autoCompaction: undefined, clientVersion: "2.1.197" })).toEqual({
      window: 1_000_000,
      source: "remembered",
    });
  });

  test("a status-line payload of this very session outranks the compaction", () => {
    const e = underCurrentClient(evidenceOf(AUTO), { statusline: 1_000_000 });
    expect(resolveWindow(e)).toEqual({ window: 1_000_000, source: "statusline" });
  });

  test("the compaction counts only for the model that compacted and while no request passed 200k", () => {
    const w = evidenceOf(AUTO);
    expect(compactionWindow(w.autoCompaction, "claude-opus-4-6", w.peakTokens)).toBe(200_000);
    // A /model switch after the compaction: the new model may have another window.
    expect(compactionWindow(w.autoCompaction, "claude-sonnet-4-5-20250929", w.peakTokens)).toBeUndefined();
    expect(compactionWindow(w.autoCompaction, "claude-opus-4-6", 230_000)).toBeUndefined();
    // A 1M window compacts near 967k; a point moved low by CLAUDE_AUTOCOMPACT_PCT_OVERRIDE shows nothing.
    expect(compactionWindow({ preTokens: 966_000 }, "claude-opus-4-8", 966_000)).toBe(1_000_000);
    expect(compactionWindow({ preTokens: 60_000 }, "claude-opus-4-8", 60_000)).toBeUndefined();
  });

  test("the client version in the transcript: a 2.1.39 session never takes the 1M default of a newer client", () => {
    const w = evidenceOf(SWITCH); // no automatic compaction: only the version and the model speak
    expect(resolveWindow(underCurrentClient(w))).toEqual({ window: 200_000, source: "model_name" });
    // The same session written by a client that has the 1M default (2.1.75 on) takes it.
    expect(resolveWindow(underCurrentClient(w, { clientVersion: "2.1.197", remembered: {} }))).toEqual({
      window: 1_000_000,
      source: "client_default",
    });
    expect(resolveWindow(underCurrentClient(w, { clientVersion: "2.1.75", remembered: {} })).window).toBe(1_000_000);
    expect(resolveWindow(underCurrentClient(w, { clientVersion: "2.1.74", remembered: {} })).window).toBe(200_000);
    // No version known (a transcript with no line yet): the running client is the session's own.
    expect(resolveWindow(underCurrentClient(w, { clientVersion: undefined, remembered: {} })).source).toBe(
      "client_default",
    );
  });

  test("the default spelled by ANTHROPIC_DEFAULT_OPUS_MODEL is 1M only for a client that has that default", () => {
    const choice = chooseModel([], { ANTHROPIC_DEFAULT_OPUS_MODEL: "claude-opus-4-6" }, {});
    expect(choice).toEqual({ model: "claude-opus-4-6[1m]", source: "client_env", implicit: true });
    const w = evidenceOf(SWITCH);
    const client = { found: true, ...choice };
    expect(resolveWindow(underCurrentClient(w, { client, remembered: {} }))).toEqual({
      window: 200_000,
      source: "client_env",
    });
    expect(resolveWindow(underCurrentClient(w, { client, remembered: {}, clientVersion: "2.1.197" })).window).toBe(
      1_000_000,
    );
    // Asked for explicitly, [1m] is 1M on any client version.
    const asked = chooseModel([], { ANTHROPIC_DEFAULT_OPUS_MODEL: "claude-opus-4-6[1m]" }, {});
    expect(resolveWindow(underCurrentClient(w, { client: { found: true, ...asked }, remembered: {} })).window).toBe(
      1_000_000,
    );
  });

  test("the model in the transcript: the Haiku part of the session is not the client's Opus default", () => {
    const w = evidenceOf(SWITCH, 24);
    expect(resolveWindow(underCurrentClient(w, { clientVersion: "2.1.197" }))).toEqual({
      window: 200_000,
      source: "model_name",
    });
  });
});
