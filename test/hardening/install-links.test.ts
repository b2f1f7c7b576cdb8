/**
 * `ctx install` and the settings file it edits: a dangling or self-looping
 * symlink is refused with a clear message (the dotfiles link is kept); a valid
 * link is written through; a settings file nested 100k deep is reported as
 * invalid JSON, never a stack overflow.
 */
import { afterEach, beforeEach, expect, test } from "bun:test";
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { makeSandbox, type Sandbox } from "./sandbox.ts";

let sb: Sandbox;
let settings: string;
beforeEach(() => {
  sb = makeSandbox();
  mkdirSync(join(sb.env.HOME!, ".claude"), { recursive: true });
  settings = join(sb.env.HOME!, ".claude", "settings.json");
});
afterEach(() => sb.cleanup());

const install = () => runCtx(["install"], { env: sb.env, cwd: sb.project, timeoutMs: 10_000 });

test.each([
  ["dangling", () => symlinkSync(join(sb.dir, "dotfiles", "claude-settings.json"), settings), /points to nothing/],
  ["self-looping", () => symlinkSync(settings, settings), /loops/],
])("a %s settings.json symlink: refused with a clear message, the link kept", async (_kind, plant, message) => {
  plant();
  const target = readlinkSync(settings);
  const r = await install();
  expect(r.code).toBe(1);
  expect(r.stderr).toMatch(message);
  expect(r.stderr).toContain(settings);
  expect(lstatSync(settings).isSymbolicLink()).toBe(true);
  expect(readlinkSync(settings)).toBe(target);
});

test("a valid symlink (dotfiles): written through, the link kept, a backup next to the target", async () => {
  const dotfiles = join(sb.dir, "dotfiles");
  mkdirSync(dotfiles);
  const real = join(dotfiles, "claude-settings.json");
  writeFileSync(real, '{\n  "theme": "dark"\n}\n');
  symlinkSync(real, settings);
  const r = await install();
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(lstatSync(settings).isSymbolicLink()).toBe(true);
  const written = JSON.parse(readFileSync(real, "utf8"));
  expect(written.theme).toBe("dark");
  expect(JSON.stringify(written.hooks)).toContain("ctx");
  expect(readdirSync(dotfiles).some((n) => n.startsWith("claude-settings.json.bak-"))).toBe(true);
});

test("a ~/.claude that is itself a symlink to a directory, no settings.json yet: written inside it", async () => {
  const realDir = join(sb.dir, "dotfiles-claude");
  mkdirSync(realDir);
  const home = join(sb.dir, "home2");
  mkdirSync(home);
  symlinkSync(realDir, join(home, ".claude"));
  const r = await runCtx(["install"], { env: { ...sb.env, HOME: home }, cwd: sb.project, timeoutMs: 10_000 });
  expect({ code: r.code, stderr: r.stderr }).toEqual({ code: 0, stderr: "" });
  expect(JSON.stringify(JSON.parse(readFileSync(join(realDir, "settings.json"), "utf8")).hooks)).toContain("ctx");
});

test("a settings.json nested 100,000 deep: reported as invalid JSON, not changed, no stack overflow", async () => {
  const deep = `{"a":${"[".repeat(100_000)}${"]".repeat(100_000)}}`;
  writeFileSync(settings, deep);
  const r = await install();
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(settings);
  expect(r.stderr).toMatch(/nested deeper than/);
  expect(r.stderr).not.toMatch(/call stack|RangeError/i);
  expect(readFileSync(settings, "utf8")).toBe(deep);
});
