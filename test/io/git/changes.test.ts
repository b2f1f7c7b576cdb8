import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { changedSince, parsePorcelainZ } from "../../../src/core/summary/git-changes.ts";
import { changedSinceStart, gitSnapshot, recordGitStart } from "../../../src/io/git/changes.ts";
import { tempDir } from "../../helpers/tmp.ts";

describe("core", () => {
  test("parsePorcelainZ(): paths, the new one of a rename", () => {
    expect(parsePorcelainZ(" M a.txt\0?? dir/b.txt\0R  new.txt\0old.txt\0 D gone.txt\0")).toEqual([
      "a.txt",
      "dir/b.txt",
      "new.txt",
      "gone.txt",
    ]);
  });
  test("changedSince(): new or different content, committed, reverted; never .ctx/", () => {
    const start = { top: "/r", head: "h1", dirty: { "same.txt": "x", "edited.txt": "x", "reverted.txt": "x" } };
    const now = { top: "/r", head: "h2", dirty: { "same.txt": "x", "edited.txt": "y", "new.txt": "z", ".ctx/s": "q" } };
    expect(changedSince(start, now, ["committed.txt", "sub/.ctx/x"])).toEqual([
      "committed.txt",
      "edited.txt",
      "new.txt",
      "reverted.txt",
    ]);
    expect(changedSince(null, now, [])).toEqual(["edited.txt", "new.txt", "same.txt"]);
  });
});

describe("with a real git repository", () => {
  let t: ReturnType<typeof tempDir>;
  let repo: string;
  const git = (...args: string[]) => {
    const r = Bun.spawnSync(["git", "-c", "user.name=t", "-c", "user.email=t@e", ...args], { cwd: repo });
    if (r.exitCode !== 0) throw new Error(r.stderr.toString());
  };
  beforeEach(() => {
    t = tempDir();
    repo = join(t.dir, "repo");
    mkdirSync(join(repo, "src"), { recursive: true });
    for (const f of ["a.txt", "b.txt", "c.txt", "src/gen.ts"]) writeFileSync(join(repo, f), `${f}\n`);
    git("init", "-q");
    git("add", "-A");
    git("commit", "-qm", "init");
  });
  afterEach(() => t.cleanup());

  test("files commands changed since the start: not the ones already dirty and untouched", () => {
    writeFileSync(join(repo, "a.txt"), "dirty before the session\n");
    const root = join(repo, ".ctx");
    recordGitStart(root, "s1", join(repo, "src"));
    // during the session: a command edits, another renames, a generator writes, one commit; ctx writes state
    writeFileSync(join(repo, "b.txt"), "sed -i\n");
    renameSync(join(repo, "c.txt"), join(repo, "c2.txt"));
    writeFileSync(join(repo, "src", "gen.ts"), "generated\n");
    git("commit", "-qm", "generated", "--", "src/gen.ts");
    writeFileSync(join(root, "state", "x.json"), "{}");
    const changed = changedSinceStart(root, "s1", join(repo, "src"));
    expect(changed).toEqual([join(repo, "b.txt"), join(repo, "c.txt"), join(repo, "c2.txt"), join(repo, "src/gen.ts")]);
  });
  test("the first snapshot of a session is kept; outside a repository: null", () => {
    const root = join(repo, ".ctx");
    recordGitStart(root, "s1", repo);
    writeFileSync(join(repo, "a.txt"), "later\n");
    recordGitStart(root, "s1", repo); // a resume: the start stays the start
    expect(changedSinceStart(root, "s1", repo)).toEqual([join(repo, "a.txt")]);
    rmSync(join(repo, ".git"), { recursive: true });
    expect(gitSnapshot(repo)).toBeNull();
    expect(changedSinceStart(root, "s1", repo)).toBeNull();
  });
});
