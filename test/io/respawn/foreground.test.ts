/**
 * checkPaneClient on a /proc laid out in a temp dir: who is in the pane's foreground, and whether
 * it is still the Claude Code the supervisor bound to (the real /proc and tmux are in
 * test/hardening/respawn-foreground.test.ts).
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { checkPaneClient } from "../../../src/io/respawn/foreground.ts";
import { tempDir } from "../../helpers/tmp.ts";

let t: { dir: string; cleanup: () => void };
let proc: string;
beforeEach(() => {
  t = tempDir();
  proc = join(t.dir, "proc");
});
afterEach(() => t.cleanup());

/** A process in the fake /proc: `/proc/<pid>/{stat,comm,cmdline,exe}`. */
function ps(pid: number, p: { comm: string; ppid: number; pgrp: number; tpgid: number; start?: number; exe?: string }) {
  const dir = join(proc, String(pid));
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  // pid (comm) state ppid pgrp session tty_nr tpgid flags … (starttime is the 22nd field)
  const rest = ["S", p.ppid, p.pgrp, p.pgrp, 34816, p.tpgid, ...Array(13).fill(0), p.start ?? 1000, 0, 0];
  writeFileSync(join(dir, "stat"), `${pid} (${p.comm}) ${rest.join(" ")}\n`);
  writeFileSync(join(dir, "comm"), `${p.comm}\n`);
  writeFileSync(join(dir, "cmdline"), `${p.comm}\0`);
  symlinkSync(p.exe ?? `/usr/bin/${p.comm}`, join(dir, "exe"));
}

test("claude is the pane's process and in the foreground: found, then expected", () => {
  ps(100, { comm: "claude", ppid: 1, pgrp: 100, tpgid: 100 });
  const first = checkPaneClient(100, undefined, proc);
  expect(first).toEqual({ ok: true, client: { pid: 100, start: "1000", exe: "/usr/bin/claude" } });
  expect(first.ok && checkPaneClient(100, first.client, proc).ok).toBe(true);
});

test("a shell whose child claude holds the foreground: the child is found; once it exits, the shell is refused", () => {
  ps(200, { comm: "bash", ppid: 1, pgrp: 200, tpgid: 210 });
  ps(210, { comm: "claude.exe", ppid: 200, pgrp: 210, tpgid: 210 });
  const bound = checkPaneClient(200, undefined, proc);
  expect(bound).toMatchObject({ ok: true, client: { pid: 210 } });
  rmSync(join(proc, "210"), { recursive: true });
  ps(200, { comm: "bash", ppid: 1, pgrp: 200, tpgid: 200 });
  expect(checkPaneClient(200, bound.ok ? bound.client : undefined, proc)).toEqual({
    ok: false,
    why: "bash (pid 200) is in the pane's foreground, not the Claude Code (pid 210) it supervises",
  });
  expect(checkPaneClient(200, undefined, proc)).toEqual({
    ok: false,
    why: "bash (pid 200) is in the pane's foreground, not Claude Code",
  });
});

test("claude started through a wrapper that did not exec: found in the foreground group", () => {
  ps(300, { comm: "sh", ppid: 1, pgrp: 300, tpgid: 300 });
  ps(301, { comm: "claude", ppid: 300, pgrp: 300, tpgid: 300 });
  expect(checkPaneClient(300, undefined, proc)).toMatchObject({ ok: true, client: { pid: 301 } });
});

test("claude in the background (an editor it opened holds the terminal): refused", () => {
  ps(400, { comm: "claude", ppid: 1, pgrp: 400, tpgid: 410 });
  ps(410, { comm: "vim", ppid: 400, pgrp: 410, tpgid: 410 });
  const client = { pid: 400, start: "1000", exe: "/usr/bin/claude" };
  expect(checkPaneClient(400, client, proc)).toEqual({
    ok: false,
    why: "vim (pid 410) is in the pane's foreground, not the Claude Code (pid 400) it supervises",
  });
});

test("the same pid reused by another claude (another start time), or an exec into another binary: refused", () => {
  ps(500, { comm: "claude", ppid: 1, pgrp: 500, tpgid: 500, start: 2000 });
  const client = { pid: 500, start: "1000", exe: "/usr/bin/claude" };
  expect(checkPaneClient(500, client, proc).ok).toBe(false);
  ps(500, { comm: "claude", ppid: 1, pgrp: 500, tpgid: 500, start: 1000, exe: "/usr/bin/other" });
  expect(checkPaneClient(500, client, proc).ok).toBe(false);
});

test("a claude in the foreground group that does not run in the pane, or a pane that is gone: refused", () => {
  ps(600, { comm: "bash", ppid: 1, pgrp: 600, tpgid: 610 });
  ps(610, { comm: "claude", ppid: 1, pgrp: 610, tpgid: 610 });
  expect(checkPaneClient(600, undefined, proc).ok).toBe(false);
  expect(checkPaneClient(699, undefined, proc)).toEqual({ ok: false, why: "the pane's process (pid 699) is gone" });
});
