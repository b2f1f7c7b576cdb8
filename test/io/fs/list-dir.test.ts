import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { listDir } from "../../../src/io/fs/list-dir.ts";
import { tempDirEach } from "../../helpers/each.ts";

const t = tempDirEach();

test("listDir() gives the names in a directory, none for a missing one or a file", () => {
  mkdirSync(join(t.dir, "d"));
  writeFileSync(join(t.dir, "d", "a.json"), "{}");
  mkdirSync(join(t.dir, "d", "sub"));
  expect(listDir(join(t.dir, "d")).sort()).toEqual(["a.json", "sub"]);
  expect(listDir(join(t.dir, "missing"))).toEqual([]);
  expect(listDir(join(t.dir, "d", "a.json"))).toEqual([]);
});
