import { expect, test } from "bun:test";
import { canonicalModel, modelDisplayName } from "../../src/core/model-name.ts";
import { cellsOf } from "../../src/core/status/render.ts";
import { toRow } from "../../src/core/status/rows.ts";
import { parseIndexEntry } from "../../src/core/status/entry.ts";

test.each([
  ["claude-sonnet-4-5", "claude-sonnet-4-5", "Sonnet 4.5"],
  ["claude-sonnet-4-5-20250929", "claude-sonnet-4-5", "Sonnet 4.5"],
  ["claude-opus-4-8[1m]", "claude-opus-4-8[1m]", "Opus 4.8 (1M context)"],
  ["claude-opus-4-1-20250805", "claude-opus-4-1", "Opus 4.1"],
  ["claude-sonnet-4-20250514", "claude-sonnet-4", "Sonnet 4"],
  ["claude-3-5-haiku-20241022", "claude-3-5-haiku", "Haiku 3.5"],
  ["gemini-2.5-pro", "gemini-2.5-pro", "gemini-2.5-pro"],
  ["<synthetic>", "<synthetic>", "<synthetic>"],
])("%s is %s, shown as %s", (id, canon, shown) => {
  expect(canonicalModel(id)).toBe(canon);
  expect(modelDisplayName(id)).toBe(shown);
});

test("a session with no reading yet shows -- for its tokens, not 0/0", () => {
  const e = parseIndexEntry({
    session_id: "fresh",
    project: "/p",
    model: "claude-sonnet-4-5",
    used_pct: 0,
    used_tokens: 0,
    window_size: 0,
    updated_at: new Date(0).toISOString(),
  })!;
  const cells = cellsOf(toRow(e, 1000, 3600, { warning: 65, critical: 75, auto_pause: 90 }));
  expect(cells[5]).toBe("--"); // TOKENS
});
