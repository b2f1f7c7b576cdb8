import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gitBranch, parseHead } from "../../../src/io/git/head.ts";
import { tempDir } from "../../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir()));
afterEach(() => t.cleanup());

test.each([
  ["ref: refs/heads/main\n", "main"],
  ["ref: refs/heads/feature/x-1\n", "feature/x-1"],
  ["0123456789abcdef0123456789abcdef01234567\n", "0123456"],
  ["garbage", undefined],
])("parseHead(%j) is %j", (head, want) => expect(parseHead(head)).toBe(want));

test("gitBranch() walks up to the repository", () => {
  mkdirSync(join(t.dir, ".git"));
  writeFileSync(join(t.dir, ".git", "HEAD"), "ref: refs/heads/dev\n");
  mkdirSync(join(t.dir, "a", "b"), { recursive: true });
  expect(gitBranch(join(t.dir, "a", "b"))).toBe("dev");
});

test("gitBranch() follows a worktree's gitdir pointer", () => {
  mkdirSync(join(t.dir, "main-repo", ".git", "worktrees", "wt"), { recursive: true });
  writeFileSync(join(t.dir, "main-repo", ".git", "worktrees", "wt", "HEAD"), "ref: refs/heads/wt-branch\n");
  mkdirSync(join(t.dir, "wt"));
  writeFileSync(join(t.dir, "wt", ".git"), `gitdir: ${join(t.dir, "main-repo", ".git", "worktrees", "wt")}\n`);
  expect(gitBranch(join(t.dir, "wt"))).toBe("wt-branch");
});
