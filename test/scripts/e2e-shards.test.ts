/** scripts/e2e-shards.ts: every end-to-end file runs once per client, in exactly one shard, balanced by time. */
import { expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { CLIENT_FREE, e2eFiles, secondsOf, shard } from "../../scripts/e2e-shards.ts";

const DIR = join(import.meta.dir, "..", "e2e");
const ALL = readdirSync(DIR).filter((f) => f.endsWith(".test.ts"));

test("the pinned run takes every e2e file; the newest run only those that drive Claude Code", () => {
  expect(e2eFiles(DIR, "pinned").sort()).toEqual([...ALL].sort());
  const newest = e2eFiles(DIR, "newest");
  expect(newest.filter((f) => CLIENT_FREE.some((re) => re.test(f)))).toEqual([]);
  expect(newest).toContain("mod-cycle.test.ts");
  expect(newest).not.toContain("opencode.test.ts");
  expect(newest).not.toContain("gemini.test.ts");
  // a client-free file really does not pick a Claude Code client
  for (const f of ALL.filter((x) => CLIENT_FREE.some((re) => re.test(x))))
    expect(Bun.file(join(DIR, f)).text()).resolves.not.toMatch(/from "\.\/(claude|client-pane|respawn-harness)\.ts"/);
});

test("shards split the files without loss or repeat, longest first to the least loaded", () => {
  for (const client of ["pinned", "newest"] as const) {
    const files = e2eFiles(DIR, client);
    for (const n of [1, 2, 3, 5]) {
      const shards = shard(files, n, (f) => secondsOf(client, f));
      expect(shards).toHaveLength(n);
      expect(shards.flat().sort()).toEqual([...files].sort());
    }
  }
  const s = { a: 10, b: 6, c: 5, d: 1 } as Record<string, number>;
  expect(shard(["a", "b", "c", "d"], 2, (f) => s[f]!)).toEqual([
    ["a", "d"],
    ["b", "c"],
  ]);
  expect(shard(["a", "b", "c", "d"], 3, (f) => s[f]!)).toEqual([["a"], ["b"], ["c", "d"]]);
});

test("an unmeasured file counts the default; a file skipped with a client counts 0 there", () => {
  expect(secondsOf("pinned", "not-measured-yet.test.ts")).toBe(20);
  expect(secondsOf("pinned", "mod-cycle.test.ts")).toBe(0);
  expect(secondsOf("newest", "mod-cycle.test.ts")).toBeGreaterThan(60);
});
