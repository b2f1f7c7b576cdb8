import { describe, expect, test } from "bun:test";
import { isSummaryName, newestFirst, stampOf, type SummaryFile } from "../../../src/core/resume/summaries.ts";

const f = (name: string, mtimeMs: number): SummaryFile => ({ name, path: `/r/sessions/${name}`, mtimeMs });
const NOW = Date.parse("2026-01-01T00:00:00Z");

describe("summary names", () => {
  test.each([
    ["summary-task-1-20250101-120000.md", true, "20250101120000"],
    ["summary-x.md", true, ""],
    ["session-20250101-120000.md", false, "20250101120000"],
    ["summary-task.md.tmp", false, ""],
    ["summary-.md", false, ""],
  ])("%s", (name, ok, stamp) => {
    expect(isSummaryName(name)).toBe(ok);
    expect(stampOf(name)).toBe(stamp);
  });
});

describe("newestFirst", () => {
  test("orders by the stamp in the name, whatever the task id", () => {
    const got = newestFirst(
      [
        f("summary-zzz-20250101-100000.md", 3),
        f("summary-aaa-20250102-090000.md", 1),
        f("summary-mmm-20250101-110000.md", 2),
      ],
      NOW,
    );
    expect(got.map((x) => x.name)).toEqual([
      "summary-aaa-20250102-090000.md",
      "summary-mmm-20250101-110000.md",
      "summary-zzz-20250101-100000.md",
    ]);
  });
  test("a summary rewritten later (newer mtime) does not jump ahead of a newer stamp", () => {
    const got = newestFirst([f("summary-t-20250101-100000.md", 9_000), f("summary-t-20250101-110000.md", 1_000)], NOW);
    expect(got[0]!.name).toBe("summary-t-20250101-110000.md");
  });
  test("same stamp or no stamp: newest mtime first", () => {
    expect(newestFirst([f("summary-a.md", 1), f("summary-b.md", 5)], NOW)[0]!.name).toBe("summary-b.md");
  });
  test("stamped names rank above unstamped ones", () => {
    expect(newestFirst([f("summary-hand.md", 99), f("summary-t-20200101-000000.md", 1)], NOW)[0]!.name).toBe(
      "summary-t-20200101-000000.md",
    );
  });
  test("a stamp far in the future (clock ahead, or planted) counts by its mtime, a future mtime as oldest", () => {
    const got = newestFirst(
      [
        f("summary-t-20991231-000000.md", NOW - 3_600_000), // cloned an hour ago
        f("summary-t-20251231-235900.md", NOW - 60_000),
        f("summary-u-20991231-000000.md", Date.parse("2099-12-31T00:00:00Z")), // clock ahead
      ],
      NOW,
    );
    expect(got.map((x) => x.name)).toEqual([
      "summary-t-20251231-235900.md",
      "summary-t-20991231-000000.md",
      "summary-u-20991231-000000.md",
    ]);
  });
  test("a stamp a few seconds ahead (jitter) counts as now", () => {
    const ahead = new Date(NOW + 5_000).toISOString().replace(/[-:]/g, "").replace("T", "-").slice(0, 15);
    const got = newestFirst([f("summary-t-20251231-235900.md", NOW), f(`summary-t-${ahead}.md`, NOW)], NOW);
    expect(got[0]!.name).toBe(`summary-t-${ahead}.md`);
  });
});
