import { expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { git, gitStatus } from "../../../src/io/git/repo.ts";
import { tempDirEach } from "../../helpers/each.ts";

const t = tempDirEach();

test("git() gives null outside a repository, the output inside one", () => {
  expect(git(t.dir, ["rev-parse", "--show-toplevel"])).toBeNull();
  expect(gitStatus(t.dir)).toBeNull();
  expect(git(t.dir, ["init", "-q"])).toBe("");
  expect(git(t.dir, ["rev-parse", "--is-inside-work-tree"])).toBe("true\n");
});

test("gitStatus() lists the project's changes, never ctx's own state", () => {
  git(t.dir, ["init", "-q"]);
  writeFileSync(join(t.dir, "a.txt"), "a\n");
  mkdirSync(join(t.dir, ".ctx", "state"), { recursive: true });
  writeFileSync(join(t.dir, ".ctx", "state", "x.json"), "{}");
  expect(gitStatus(t.dir)).toEqual(["?? a.txt"]);
  mkdirSync(join(t.dir, "sub"));
  expect(gitStatus(join(t.dir, "sub"))).toEqual([]);
});
