import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pendingPath, readResumeState, writePending } from "../../../src/io/resume/state.ts";

let root = "";
beforeEach(() => {
  root = join(mkdtempSync(join(tmpdir(), "ctx-resume-state-")), ".ctx");
});
afterEach(() => rmSync(join(root, ".."), { recursive: true, force: true }));

test("writePending leaves the hand-over the resume hook reads: the summary, not consumed yet", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  writePending(root, "/p/.ctx/sessions/summary-c-1.md", now);
  expect(pendingPath(root)).toBe(join(root, "state", "respawn-pending.json"));
  expect(JSON.parse(readFileSync(pendingPath(root), "utf8"))).toEqual({
    version: 1,
    summary_path: "/p/.ctx/sessions/summary-c-1.md",
    created_at: "2026-01-01T00:00:00.000Z",
    consumed_by: null,
    consumed_at: null,
  });
  expect(statSync(pendingPath(root)).mode & 0o777).toBe(0o600);
  expect(readResumeState(root, now).pending).toMatchObject({ summary_path: "/p/.ctx/sessions/summary-c-1.md" });
});
