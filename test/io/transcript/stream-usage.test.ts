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
