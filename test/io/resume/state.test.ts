import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { layout } from "../../../src/core/layout.ts";
import { readResumeState, writePending } from "../../../src/io/resume/state.ts";

let root = "";
beforeEach(() => {
  root = join(mkdtempSync(join(tmpdir(), "ctx-resume-state-")), ".ctx");
});
afterEach(() => rmSync(join(root, ".."), { recursive: true, force: true }));

test("writePending leaves the hand-over the resume hook reads: the summary, not consumed yet", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  writePending(root, "/p/.ctx/sessions/summary-c-1.md", now);
  expect(layout(root).respawnPending).toBe(join(root, "state", "respawn-pending.json"));
  expect(JSON.parse(readFileSync(layout(root).respawnPending, "utf8"))).toEqual({
    version: 1,
    summary_path: "/p/.ctx/sessions/summary-c-1.md",
    created_at: "2026-01-01T00:00:00.000Z",
    consumed_by: null,
    consumed_at: null,
  });
  expect(statSync(layout(root).respawnPending).mode & 0o777).toBe(0o600);
  expect(readResumeState(root, now).pending).toMatchObject({ summary_path: "/p/.ctx/sessions/summary-c-1.md" });
});
