/** `ctx install` / `ctx uninstall` and ctx's Claude Code plugin: written from the binary's copy, named in env, removed exactly. */
import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { install } from "../../src/commands/install.ts";
import { run as uninstall } from "../../src/commands/uninstall.ts";
import { doctor } from "../../src/commands/doctor.ts";
import { type Home, makeHome } from "../install/settings-home.ts";

const BIN = "/opt/ctx/bin/ctx";
const REPO_PLUGIN = join(import.meta.dir, "..", "..", "plugin");
let h: Home;
afterEach(() => h?.cleanup());

const settingsFile = () => join(h.home, ".claude", "settings.json");
const settings = () => JSON.parse(readFileSync(settingsFile(), "utf8"));
const pluginDir = () => join(h.deps.env.XDG_STATE_HOME!, "ctx", "install", "claude-plugin");

describe("ctx install: the Claude Code plugin", () => {
  test("writes the plugin from the binary's copy, the mod naming this binary, and loads it through env", () => {
    h = makeHome();
    expect(install([], h.deps, BIN)).toBe(0);
    const dir = pluginDir();
    expect(settings().env).toEqual({ CLAUDE_CODE_PLUGIN_DIRS: dir });
    // The settings hooks stay: clients without mods (2.1.197) run them.
    expect(settings().hooks.PostToolUse[0].hooks.map((x: { command: string }) => x.command)).toEqual([
      `${BIN} monitor`,
      `${BIN} track`,
    ]);
    for (const f of [".claude-plugin/plugin.json", "hooks/hooks.json"])
      expect(readFileSync(join(dir, f), "utf8")).toBe(readFileSync(join(REPO_PLUGIN, f), "utf8"));
    const mod = readFileSync(join(dir, "hooks/register.ts"), "utf8");
    expect(mod).toContain(`const CTX_BIN = "${BIN}";`);
    expect(mod.replace(`const CTX_BIN = "${BIN}";`, 'const CTX_BIN = "ctx";')).toBe(
      readFileSync(join(REPO_PLUGIN, "hooks/register.ts"), "utf8"),
    );
    expect(JSON.parse(readFileSync(join(dir, "hooks/hooks.json"), "utf8")).modules).toEqual(["./register.ts"]);
    expect(h.out()).toContain(`added   env.CLAUDE_CODE_PLUGIN_DIRS: ${dir}`);
    // Twice: nothing new in the settings.
    expect(install([], h.deps, BIN)).toBe(0);
    expect(h.out()).toContain("already up to date");
  });

  test("keeps the user's own plugin folders and env; uninstall gives them back exactly", async () => {
    h = makeHome();
    mkdirSync(join(h.home, ".claude"));
    const original = { env: { FOO: "1", CLAUDE_CODE_PLUGIN_DIRS: "/mine/a:/mine/b" }, model: "opus" };
    writeFileSync(settingsFile(), JSON.stringify(original));
    install([], h.deps, BIN);
    expect(settings().env).toEqual({ FOO: "1", CLAUDE_CODE_PLUGIN_DIRS: `/mine/a:/mine/b:${pluginDir()}` });
    // the file is as ctx wrote it: the user's bytes come back whole, and the plugin's folder goes
    expect(await uninstall([], h.deps)).toBe(0);
    expect(settings()).toEqual(original);
    expect(existsSync(pluginDir())).toBe(false);
    expect(h.out()).toContain("byte for byte");
    // edited since: only ctx's entries go, the user's own plugin folders and keys stay
    install([], h.deps, BIN);
    writeFileSync(settingsFile(), JSON.stringify({ ...settings(), theme: "dark" }));
    expect(await uninstall([], h.deps)).toBe(0);
    expect(settings()).toEqual({ ...original, theme: "dark" });
    expect(existsSync(pluginDir())).toBe(false);
    expect(h.out()).toContain(`removed env.CLAUDE_CODE_PLUGIN_DIRS: ${pluginDir()}`);
  });

  test("uninstall removes what the client laid beside the mod, and leaves anything else someone put there", async () => {
    h = makeHome();
    install([], h.deps, BIN);
    const dir = pluginDir();
    // What the client writes when it loads a mod from a folder (its declarations and a tsconfig.json).
    mkdirSync(join(dir, ".claude-plugin", "types", "claude-code"), { recursive: true });
    writeFileSync(join(dir, ".claude-plugin", "types", "claude-code", "index.d.ts"), "// Written by Claude Code\n");
    writeFileSync(join(dir, "tsconfig.json"), '{"extends": "./.claude-plugin/types/tsconfig.json"}\n');
    writeFileSync(join(dir, "hooks", "notes.txt"), "mine");
    await uninstall([], h.deps);
    expect(readdirSync(dir, { recursive: true }).map(String).sort()).toEqual(["hooks", "hooks/notes.txt"]);
  });

  test("--dry-run writes no plugin; --project and the other agents get none", () => {
    h = makeHome();
    install(["--dry-run"], h.deps, BIN);
    expect(existsSync(pluginDir())).toBe(false);
    expect(h.out()).toContain(`would write ${pluginDir()}/`);
    install(["--gemini"], h.deps, BIN);
    expect(existsSync(pluginDir())).toBe(false);
    mkdirSync(join(h.deps.cwd, ".git"));
    install(["--project"], h.deps, BIN);
    expect(existsSync(pluginDir())).toBe(false);
    expect(JSON.parse(readFileSync(join(h.deps.cwd, ".claude", "settings.json"), "utf8")).env).toBeUndefined();
  });
});

describe("ctx doctor: the live Claude Code path", () => {
  /** A `claude` on PATH that says `version`. */
  function fakeClaude(version: string): void {
    const dir = join(h.root, "bin");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "claude"), `#!/bin/sh\necho '${version} (Claude Code)'\n`, { mode: 0o755 });
    h.deps.env.PATH = `${dir}:/usr/bin:/bin`;
  }
  const pathLine = () =>
    h
      .out()
      .split("\n")
      .find((l) => l.includes("Claude Code path:"));

  test("after ctx install: the mod on a client that runs mods, the hooks on 2.1.197", () => {
    h = makeHome();
    install([], h.deps, BIN);
    fakeClaude("2.1.332");
    doctor([], h.deps, BIN);
    expect(pathLine()).toStartWith("ok    Claude Code path: mod (Claude Code 2.1.332 runs ctx's mod");
    h.cleanup();
    h = makeHome();
    install([], h.deps, BIN);
    fakeClaude("2.1.197");
    doctor([], h.deps, BIN);
    expect(pathLine()).toBe(
      "ok    Claude Code path: settings hooks + status line: Claude Code 2.1.197 runs no mods (2.1.286 and later do)",
    );
  });

  test("without the plugin: a warning and the fix", () => {
    h = makeHome();
    install([], h.deps, BIN);
    const file = join(h.home, ".claude", "settings.json");
    const s = JSON.parse(readFileSync(file, "utf8"));
    delete s.env;
    writeFileSync(file, JSON.stringify(s));
    fakeClaude("2.1.332");
    doctor([], h.deps, BIN);
    expect(pathLine()).toBe("warn  Claude Code path: settings hooks + status line: ctx's plugin is not installed");
    expect(h.out()).toContain("      fix: ctx install");
  });
});
