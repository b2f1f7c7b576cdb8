import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import type { ModelTotals } from "../../../src/core/track/state.ts";
import { addLineUsage, lineUsage, SEEN_LIMIT } from "../../../src/core/track/tokens.ts";
import { readNewUsage } from "../../../src/io/transcript/stream-usage.ts";
import { appendFileSync, writeFileSync } from "node:fs";
import { tempDir } from "../../helpers/tmp.ts";

const FIXTURE = join(import.meta.dir, "..", "..", "fixtures", "transcripts", "track-basic.jsonl");

function line(id: string, usage: Record<string, number>, extra: Record<string, unknown> = {}) {
  return {
    type: "assistant",
    requestId: `req_${id}`,
    message: { id, model: "claude-sonnet-4-5", usage, content: [] },
    ...extra,
  };
}

describe("lineUsage()", () => {
  test("skips synthetic messages and lines without an id", () => {
    expect(
      lineUsage({
        ...line("a", { input_tokens: 5 }),
        message: { id: "a", model: "<synthetic>", usage: { input_tokens: 5 } },
      }),
    ).toBeUndefined();
    expect(lineUsage({ type: "assistant", message: { model: "m", usage: { input_tokens: 5 } } })).toBeUndefined();
    expect(lineUsage({ type: "user" })).toBeUndefined();
  });
});

describe("addLineUsage()", () => {
  test("counts one API message once however many lines repeat it", () => {
    const models: Record<string, ModelTotals> = {};
    const seen: Array<[string, ModelTotals]> = [];
    for (let i = 0; i < 3; i++)
      addLineUsage(models, seen, lineUsage(line("m1", { input_tokens: 100, output_tokens: 7 }))!);
    expect(models["claude-sonnet-4-5"]).toEqual({
      input_tokens: 100,
      output_tokens: 7,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      requests: 1,
    });
  });
  test("adds only the growth when a later line of the same message reports more output", () => {
    const models: Record<string, ModelTotals> = {};
    const seen: Array<[string, ModelTotals]> = [];
    addLineUsage(models, seen, lineUsage(line("m1", { input_tokens: 100, output_tokens: 1 }))!);
    const delta = addLineUsage(models, seen, lineUsage(line("m1", { input_tokens: 100, output_tokens: 40 }))!);
    expect(delta.output_tokens).toBe(39);
    expect(models["claude-sonnet-4-5"]!.output_tokens).toBe(40);
  });
  test("remembers at most SEEN_LIMIT ids", () => {
    const models: Record<string, ModelTotals> = {};
    const seen: Array<[string, ModelTotals]> = [];
    for (let i = 0; i < SEEN_LIMIT + 10; i++)
      addLineUsage(models, seen, lineUsage(line(`m${i}`, { input_tokens: 1 }))!);
    expect(seen.length).toBe(SEEN_LIMIT);
    expect(models["claude-sonnet-4-5"]!.requests).toBe(SEEN_LIMIT + 10);
  });
});

describe("readNewUsage()", () => {
  test("on a recorded transcript counts each request once (a two-block message spans two lines)", () => {
    const models: Record<string, ModelTotals> = {};
    const got = readNewUsage(FIXTURE, null, models, 1 << 30)!;
    expect(models["claude-sonnet-4-5"]).toEqual({
      input_tokens: 1000 + 2000 + 150000 + 185000,
      output_tokens: 80,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 30000,
      requests: 4,
    });
    // A second read from the cursor adds nothing.
    const again = readNewUsage(FIXTURE, got.cursor, models, 1 << 30)!;
    expect(again.deltas).toEqual({});
    expect(models["claude-sonnet-4-5"]!.requests).toBe(4);
  });

  test("reads only new complete lines, and starts over without double counting when the file shrinks", () => {
    const t = tempDir();
    try {
      const p = join(t.dir, "t.jsonl");
      writeFileSync(
        p,
        `${JSON.stringify(line("a", { input_tokens: 10 }))}\n${JSON.stringify(line("b", { input_tokens: 20 })).slice(0, 30)}`,
      );
      const models: Record<string, ModelTotals> = {};
      const first = readNewUsage(p, null, models, 1 << 20)!;
      expect(models["claude-sonnet-4-5"]!.input_tokens).toBe(10);
      writeFileSync(
        p,
        `${JSON.stringify(line("a", { input_tokens: 10 }))}\n${JSON.stringify(line("b", { input_tokens: 20 }))}\n`,
      );
      const second = readNewUsage(p, first.cursor, models, 1 << 20)!;
      expect(models["claude-sonnet-4-5"]!.input_tokens).toBe(30);
      writeFileSync(p, `${JSON.stringify(line("b", { input_tokens: 20 }))}\n`); // rotated: shorter than the offset
      const third = readNewUsage(p, second.cursor, models, 1 << 20)!;
      expect(models["claude-sonnet-4-5"]!.input_tokens).toBe(30);
      appendFileSync(p, `${JSON.stringify(line("c", { input_tokens: 5 }))}\n`);
      readNewUsage(p, third.cursor, models, 1 << 20);
      expect(models["claude-sonnet-4-5"]).toMatchObject({ input_tokens: 35, requests: 3 });
    } finally {
      t.cleanup();
    }
  });
});
