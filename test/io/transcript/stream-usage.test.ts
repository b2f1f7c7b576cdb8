/**
 * ctx track's incremental transcript reader notes where the session compacted by itself, the window
 * evidence the hooks cannot see in the transcript's tail. The transcript is an excerpt of a real
 * session: github.com/marot/spotter, MIT, commit 8cc42b0bd39d04e71e509d7d58e6782ab435329f
 * (test/fixtures/transcripts/spotter-window/README.md).
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readNewUsage } from "../../../src/io/transcript/stream-usage.ts";
import { tempDir } from "../../helpers/tmp.ts";

const EXCERPT = join(
  import.meta.dir,
  "..",
  "..",
  "fixtures",
  "transcripts",
  "spotter-window",
  "auto-compact-200k.jsonl",
);
let t: ReturnType<typeof tempDir>;
beforeEach(() => {
  t = tempDir();
});
afterEach(() => t.cleanup());

test("the read that passes an automatic compact_boundary gives its point and model; later reads do not", () => {
  const got = readNewUsage(EXCERPT, null, {}, 16 * 1024 * 1024);
  expect(got?.autoCompaction).toEqual({ preTokens: 167_094, model: "claude-opus-4-6" });
  expect(Object.keys(got!.deltas)).toEqual(["claude-opus-4-6"]);
  expect(readNewUsage(EXCERPT, got!.cursor, {}, 16 * 1024 * 1024)?.autoCompaction).toBeUndefined();
});

test("a read that starts at the boundary names the model the session had before it", () => {
  const text = readFileSync(EXCERPT, "utf8");
  const at = Buffer.byteLength(text.slice(0, text.indexOf('{"parentUuid":null,"logicalParentUuid"')));
  const path = join(t.dir, "t.jsonl");
  writeFileSync(path, text);
  const cursor = { path, offset: at, seen: [] };
  expect(readNewUsage(path, cursor, {}, 1024 * 1024, "claude-opus-4-6")?.autoCompaction).toEqual({
    preTokens: 167_094,
    model: "claude-opus-4-6",
  });
  expect(readNewUsage(path, cursor, {}, 1024 * 1024)?.autoCompaction).toEqual({ preTokens: 167_094 });
});

test("a usage limit only the transcript records (the API error line) is read with its reset; a request after it ends it", () => {
  const path = join(t.dir, "limit.jsonl");
  const request = (id: string, at: string) =>
    JSON.stringify({
      type: "assistant",
      timestamp: at,
      requestId: `req_${id}`,
      message: {
        id: `msg_${id}`,
        model: "claude-sonnet-4-5",
        usage: { input_tokens: 100, cache_read_input_tokens: 50_000, output_tokens: 10 },
        content: [{ type: "text", text: "ok" }],
      },
    });
  // as PROTOCOL.md records it for 2.1.197: an assistant line with isApiErrorMessage and error "rate_limit"
  const limitLine = JSON.stringify({
    type: "assistant",
    timestamp: "2026-12-01T14:10:00.000Z",
    isApiErrorMessage: true,
    error: "rate_limit",
    message: {
      id: "msg_err",
      model: "<synthetic>",
      usage: { input_tokens: 0, output_tokens: 0 },
      content: [{ type: "text", text: "You've hit your session limit · resets 3:03pm (UTC)" }],
    },
  });
  writeFileSync(path, `${request("a", "2026-12-01T14:00:00.000Z")}\n${limitLine}\n`);
  const first = readNewUsage(path, null, {}, 1024 * 1024);
  expect(first?.limit?.message).toBe("You've hit your session limit · resets 3:03pm (UTC)");
  expect(new Date(first!.limit!.resetsAt!).toISOString()).toBe("2026-12-01T15:03:00.000Z");
  writeFileSync(path, `${readFileSync(path, "utf8")}${request("b", "2026-12-01T15:05:00.000Z")}\n`);
  expect(readNewUsage(path, first!.cursor, {}, 1024 * 1024)?.limit).toBeUndefined();
  expect(readNewUsage(path, null, {}, 1024 * 1024)?.limit).toBeUndefined(); // the whole file: the request came after
});
