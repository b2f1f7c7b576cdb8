import { afterEach, beforeEach, expect, test } from "bun:test";
import { existsSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { sweepStaleTemps, sweepStateTemps } from "../../../src/io/fs/sweep.ts";
import { tempDir } from "../../helpers/tmp.ts";

let t: ReturnType<typeof tempDir>;
beforeEach(() => (t = tempDir()));
afterEach(() => t.cleanup());

function file(name: string, ageMs: number): string {
  const p = join(t.dir, name);
  writeFileSync(p, "x");
  const when = (Date.now() - ageMs) / 1000;
  utimesSync(p, when, when);
  return p;
}

test("sweepStaleTemps() removes only old temp files of ours, never state or fresh writes", () => {
  const old = file(".s1.json.1234.ab12cd34.tmp", 3_600_000);
  const fresh = file(".s1.json.1235.ab12cd35.tmp", 1000);
  const state = file("s1.json", 3_600_000);
  const other = file(".hidden-config", 3_600_000);
  mkdirSync(join(t.dir, ".d.1.a.tmp"));
  expect(sweepStaleTemps(t.dir, Date.now())).toBe(1);
  expect([
    existsSync(old),
    existsSync(fresh),
    existsSync(state),
    existsSync(other),
    existsSync(join(t.dir, ".d.1.a.tmp")),
  ]).toEqual([false, true, true, true, true]);
});

test("sweepStaleTemps() with a prefix leaves other programs' temp files alone", () => {
  const ours = file(".claude-ctx-s1.json.99.zz.tmp", 3_600_000);
  const theirs = file(".other.json.99.zz.tmp", 3_600_000);
  expect(sweepStaleTemps(t.dir, Date.now(), 60_000, ".claude-ctx-")).toBe(1);
  expect([existsSync(ours), existsSync(theirs)]).toEqual([false, true]);
});

test("sweepStaleTemps() on a missing directory does nothing", () => {
  expect(sweepStaleTemps(join(t.dir, "nope"), Date.now())).toBe(0);
});

test("sweepStateTemps() sweeps the state directories of a root, never through a symlinked one", () => {
  const root = join(t.dir, ".ctx");
  const elsewhere = join(t.dir, "elsewhere");
  mkdirSync(join(root, "state", "sessions"), { recursive: true });
  mkdirSync(elsewhere);
  symlinkSync(elsewhere, join(root, "events"));
  const stale = file(".ctx/state/sessions/.s1.json.1.aa.tmp", 3_600_000);
  const atRoot = file(".ctx/.x.json.1.bb.tmp", 3_600_000);
  const behindLink = file("elsewhere/.e.json.1.cc.tmp", 3_600_000);
  const env = { XDG_STATE_HOME: join(t.dir, "xdg"), TMPDIR: join(t.dir, "tmp") };
  sweepStateTemps(env, root, Date.now());
  expect([existsSync(stale), existsSync(atRoot), existsSync(behindLink)]).toEqual([false, false, true]);
});
