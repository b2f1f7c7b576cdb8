import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listDir } from "../../../src/io/fs/list-dir.ts";
import { tempDir } from "../../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir()));
afterEach(() => t.cleanup());

test("listDir() gives the names in a directory, none for a missing one or a file", () => {
  mkdirSync(join(t.dir, "d"));
  writeFileSync(join(t.dir, "d", "a.json"), "{}");
  mkdirSync(join(t.dir, "d", "sub"));
  expect(listDir(join(t.dir, "d")).sort()).toEqual(["a.json", "sub"]);
  expect(listDir(join(t.dir, "missing"))).toEqual([]);
  expect(listDir(join(t.dir, "d", "a.json"))).toEqual([]);
});
