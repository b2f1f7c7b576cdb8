import { afterEach, describe, expect, test } from "bun:test";
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { install } from "../../src/commands/install.ts";
import { CtxError } from "../../src/core/deps.ts";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { type Home, makeHome } from "../install/settings-home.ts";

const BIN = "/opt/ctx/bin/ctx";
let h: Home;
afterEach(() => h?.cleanup());

function settingsFile(): string {
  return join(h.home, ".claude", "settings.json");
}
function writeSettings(text: string): void {
  mkdirSync(join(h.home, ".claude"), { recursive: true });
  writeFileSync(settingsFile(), text);
}
function read(): any {
  return JSON.parse(readFileSync(settingsFile(), "utf8"));
}
function backups(dir = join(h.home, ".claude")): string[] {
  return readdirSync(dir)
    .filter((f) => f.includes(".bak-"))
    .sort();
}

/** Odd formatting: tabs, no spaces, key order, unicode, another statusLine, other hooks. */
const ODD = `{"permissions":{"allow":["Bash(git:*)"]},
\t"hooks" :{ "PostToolUse":[{"matcher":"Edit","hooks":[{"type":"command","command":"fmt.sh","timeout":5}]}],
\t\t"Notification":[{"hooks":[{"type":"command","command":"say \\"hé\\""}]}]},
\t"statusLine":{"type":"command","command":"~/bin/my-line","padding":2},   "zeta":[1,2.5,{"a":null}]}`;

describe("ctx install", () => {
  test("creates ~/.claude/settings.json when there is none (no backup needed)", () => {
    h = makeHome();
    expect(install([], h.deps, BIN)).toBe(0);
    const s = read();
    expect(s.statusLine).toEqual({ type: "command", command: `${BIN} statusline`, padding: 0 });
    expect(s.hooks.SessionEnd).toEqual([{ hooks: [{ type: "command", command: `${BIN} track`, timeout: 30 }] }]);
    expect(backups()).toEqual([]);
    expect(h.out()).toContain(`wrote ${settingsFile()}`);
  });

  test("keeps other hooks, another statusLine and every key of an oddly formatted file; backs it up first", () => {
    h = makeHome();
    writeSettings(ODD);
    expect(install([], h.deps, BIN)).toBe(0);
    const s = read();
    const original = JSON.parse(ODD);
    expect(s.permissions).toEqual(original.permissions);
    expect(s.zeta).toEqual(original.zeta);
    expect(s.statusLine).toEqual({ ...original.statusLine, command: `${BIN} statusline --chain '~/bin/my-line'` });
    expect(s.hooks.Notification).toEqual(original.hooks.Notification);
    expect(s.hooks.PostToolUse[0]).toEqual(original.hooks.PostToolUse[0]);
    expect(s.hooks.PostToolUse[1].hooks.map((x: any) => x.command)).toEqual([`${BIN} monitor`, `${BIN} track`]);
    // The one key added: env.CLAUDE_CODE_PLUGIN_DIRS, ctx's mod for clients that run mods.
    expect(Object.keys(s)).toEqual([...Object.keys(original), "env"]);
    expect(readFileSync(settingsFile(), "utf8")).toContain('\n\t"permissions"'); // the file's tab indentation is kept
    expect(h.out()).toContain(
      "chained statusLine: ctx statusline shows yours (~/bin/my-line) beside ctx's; ctx uninstall puts yours back",
    );
    expect(backups()).toEqual(["settings.json.bak-20250102-030405"]);
    expect(readFileSync(join(h.home, ".claude", backups()[0]!), "utf8")).toBe(ODD);
  });

  test("is idempotent: the second run writes nothing and makes no backup", () => {
    h = makeHome();
    writeSettings(ODD);
    install([], h.deps, BIN);
    const after = readFileSync(settingsFile(), "utf8");
    const mtime = statSync(settingsFile()).mtimeMs;
    expect(install([], h.deps, BIN)).toBe(0);
    expect(readFileSync(settingsFile(), "utf8")).toBe(after);
    expect(statSync(settingsFile()).mtimeMs).toBe(mtime);
    expect(backups()).toHaveLength(1);
    expect(h.out()).toContain("already up to date, nothing written");
  });

  test("refuses invalid JSON, saying where, and changes nothing", () => {
    h = makeHome();
    const bad = '{\n  "model": "opus",\n  "hooks": {,\n}\n';
    writeSettings(bad);
    let err: unknown;
    try {
      install([], h.deps, BIN);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(CtxError);
    expect((err as CtxError).code).toBe(1);
    expect((err as CtxError).message).toContain(`${settingsFile()}:3:13: expected a property name in double quotes`);
    expect(readFileSync(settingsFile(), "utf8")).toBe(bad);
    expect(backups()).toEqual([]);
  });

  test("--keep-statusline leaves another statusLine alone; both flags at once are a usage error", () => {
    h = makeHome();
    writeSettings(ODD);
    install(["--keep-statusline"], h.deps, BIN);
    expect(read().statusLine).toEqual(JSON.parse(ODD.replace(/\t/g, "")).statusLine);
    expect(h.out()).toContain("kept your statusLine (~/bin/my-line) alone");
    expect(() => install(["--keep-statusline", "--force-statusline"], h.deps, BIN)).toThrow("exclude each other");
  });

  test("--force-statusline replaces another statusLine; the backup keeps it", () => {
    h = makeHome();
    writeSettings(ODD);
    install(["--force-statusline"], h.deps, BIN);
    expect(read().statusLine.command).toBe(`${BIN} statusline`);
    expect(JSON.parse(readFileSync(join(h.home, ".claude", backups()[0]!), "utf8")).statusLine.command).toBe(
      "~/bin/my-line",
    );
  });

  test("--dry-run prints the result and writes nothing", () => {
    h = makeHome();
    expect(install(["--dry-run"], h.deps, BIN)).toBe(0);
    expect(existsSync(join(h.home, ".claude"))).toBe(false);
    const json = h.out().slice(h.out().indexOf("{"));
    expect(JSON.parse(json).hooks.PreCompact[0].hooks[0].command).toBe(`${BIN} track`);
  });

  test("--project writes <git root>/.claude/settings.json", () => {
    h = makeHome();
    const project = join(h.root, "work");
    mkdirSync(join(project, ".git"));
    mkdirSync(join(project, "sub"));
    h.deps.cwd = join(project, "sub");
    install(["--project"], h.deps, BIN);
    expect(JSON.parse(readFileSync(join(project, ".claude", "settings.json"), "utf8")).hooks.Stop).toHaveLength(1);
    expect(existsSync(settingsFile())).toBe(false);
  });

  test("--project writes a portable command and keeps its backups out of the project", () => {
    h = makeHome();
    const project = join(h.root, "work");
    mkdirSync(join(project, ".git"));
    mkdirSync(join(project, ".claude"));
    const file = join(project, ".claude", "settings.json");
    writeFileSync(file, JSON.stringify({ permissions: { allow: ["Bash(npm test)"] } }));
    install(["--project"], h.deps, BIN);
    const text = readFileSync(file, "utf8");
    expect(text).not.toContain(BIN); // no path of this machine in a file teams commit
    const s = JSON.parse(text);
    expect(s.hooks.Stop[0].hooks[0].command).toBe("ctx track");
    expect(s.statusLine.command).toBe("ctx statusline");
    expect(readdirSync(join(project, ".claude"))).toEqual(["settings.json"]); // no .bak beside it
    const backups = join(h.deps.env.XDG_STATE_HOME!, "ctx", "install");
    const dirs = readdirSync(backups).filter((d) => d.startsWith("backups-"));
    expect(dirs).toHaveLength(1);
    expect(readdirSync(join(backups, dirs[0]!))).toEqual(["settings.json.bak-20250102-030405"]);
    expect(h.out()).toContain(`backup: ${join(backups, dirs[0]!, "settings.json.bak-20250102-030405")}`);
    // ctx wired in the user's settings as well: said at once, since both would run
    install([], h.deps, BIN);
    const before = h.out().length;
    install(["--project"], h.deps, BIN);
    expect(h.out().slice(before)).toContain("the client runs each hook twice");
  });

  test("--gemini writes ~/.gemini/settings.json with Gemini events and millisecond timeouts", () => {
    h = makeHome();
    mkdirSync(join(h.home, ".gemini"));
    writeFileSync(join(h.home, ".gemini", "settings.json"), '{"theme":"GitHub"}');
    install(["--gemini"], h.deps, BIN);
    const s = JSON.parse(readFileSync(join(h.home, ".gemini", "settings.json"), "utf8"));
    expect(s.theme).toBe("GitHub");
    expect(s.statusLine).toBeUndefined();
    expect(s.hooks.AfterTool[0]).toEqual({
      matcher: ".*",
      hooks: [
        { type: "command", command: `${BIN} monitor`, timeout: 10000 },
        { type: "command", command: `${BIN} track`, timeout: 30000 },
      ],
    });
    expect(Object.keys(s.hooks).sort()).toEqual([
      "AfterAgent",
      "AfterTool",
      "BeforeAgent",
      "PreCompress",
      "SessionEnd",
      "SessionStart",
    ]);
    expect(backups(join(h.home, ".gemini"))).toHaveLength(1);
  });

  test("follows a symlinked settings.json (dotfiles) and keeps the link and the file mode", () => {
    h = makeHome();
    const real = join(h.root, "dotfiles", "claude.json");
    mkdirSync(join(h.root, "dotfiles"));
    writeFileSync(real, '{"model":"opus"}');
    chmodSync(real, 0o640);
    mkdirSync(join(h.home, ".claude"));
    symlinkSync(real, settingsFile());
    install([], h.deps, BIN);
    expect(realpathSync(settingsFile())).toBe(real);
    expect(JSON.parse(readFileSync(real, "utf8")).model).toBe("opus");
    expect(statSync(real).mode & 0o777).toBe(0o640);
    expect(backups(join(h.root, "dotfiles"))).toHaveLength(1);
  });

  test("usage errors and running from source are refused", () => {
    h = makeHome();
    expect(() => install(["--frobnicate"], h.deps, BIN)).toThrow(CtxError);
    expect(() => install([], h.deps, undefined)).toThrow("compiled ctx binary");
    expect(existsSync(join(h.home, ".claude"))).toBe(false);
  });

  test("the compiled binary registers its own absolute path", async () => {
    h = makeHome();
    const r = await runCtx(["install"], { env: h.deps.env as Record<string, string>, cwd: h.deps.cwd });
    expect(r.code).toBe(0);
    expect(read().hooks.PostToolUse[0].hooks[0].command).toBe(`${realpathSync(CTX_BIN)} monitor`);
  });
});
