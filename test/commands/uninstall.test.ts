import { afterEach, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { install } from "../../src/commands/install.ts";
import { run as uninstall } from "../../src/commands/uninstall.ts";
import { type Home, makeHome } from "../install/settings-home.ts";

const BIN = "/opt/ctx/bin/ctx";
let h: Home;
afterEach(() => h?.cleanup());

const USER = {
  model: "sonnet",
  hooks: {
    PostToolUse: [{ matcher: "Write", hooks: [{ type: "command", command: "lint.sh" }] }],
    Stop: [
      {
        hooks: [
          { type: "command", command: "notify" },
          { type: "command", command: "/elsewhere/ctx finalize" },
        ],
      },
    ],
  },
  statusLine: { type: "command", command: "my-line" },
};

function file(agent = ".claude"): string {
  return join(h.home, agent, "settings.json");
}
function seed(value: unknown, agent = ".claude"): void {
  mkdirSync(join(h.home, agent), { recursive: true });
  writeFileSync(file(agent), JSON.stringify(value, null, 2));
}

/** Every path below `dir`, relative, sorted. */
function tree(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((d) => {
      const p = join(dir, d.name);
      return d.isDirectory() ? [`${p.slice(base.length)}/`, ...tree(p, base)] : [p.slice(base.length)];
    })
    .sort();
}

describe("ctx uninstall", () => {
  test("right after install on a home with no settings.json: the home is back as it was", async () => {
    h = makeHome();
    const before = tree(h.home);
    expect(install([], h.deps, BIN)).toBe(0);
    expect(existsSync(file())).toBe(true);
    expect(h.out()).toContain(`wrote ${file()}`);
    expect(await uninstall([], h.deps)).toBe(0);
    expect(existsSync(file())).toBe(false);
    expect(tree(h.home)).toEqual(before);
    expect(h.out()).toContain(`removed ${file()} (ctx created it, and nothing else is left in it)`);
    expect(h.out()).toContain(`removed ${join(h.home, ".claude")}/ (left empty)`);
  });
  test("a settings.json that was there before ctx is kept, even when only {} is left", async () => {
    h = makeHome();
    seed({});
    install([], h.deps, BIN);
    await uninstall([], h.deps);
    expect(JSON.parse(readFileSync(file(), "utf8"))).toEqual({});
  });
  test("a file ctx created keeps what the user added to it since", async () => {
    h = makeHome();
    install([], h.deps, BIN);
    const withUser = JSON.parse(readFileSync(file(), "utf8"));
    writeFileSync(file(), JSON.stringify({ ...withUser, model: "opus" }));
    await uninstall([], h.deps);
    expect(JSON.parse(readFileSync(file(), "utf8"))).toEqual({ model: "opus" });
  });
  test("removes exactly ctx's entries: the file is the user's again", async () => {
    h = makeHome();
    seed(USER);
    install(["--force-statusline"], h.deps, BIN);
    install([], h.deps, "/moved/ctx"); // a second install from elsewhere only refreshes paths
    // the user touched the file since (compacted it): no byte-for-byte restore, ctx's entries are taken out
    writeFileSync(file(), JSON.stringify(JSON.parse(readFileSync(file(), "utf8"))));
    expect(await uninstall([], h.deps)).toBe(0);
    const { statusLine, ...rest } = JSON.parse(readFileSync(file(), "utf8"));
    expect(rest).toEqual({ model: USER.model, hooks: USER.hooks }); // the look-alike `ctx finalize` hook stays
    expect(statusLine).toEqual(USER.statusLine); // replaced by --force-statusline, put back by uninstall
    expect(h.out()).toContain("removed PostToolUse: /moved/ctx monitor");
    expect(h.out()).toContain("removed PostToolUseFailure: /moved/ctx monitor");
    expect(h.out()).toContain("restored statusLine: my-line");
    expect(readdirSync(join(h.home, ".claude")).filter((f) => f.includes(".bak-"))).toHaveLength(3);
  });

  test("a chained statusLine comes back exactly, and its record is forgotten", async () => {
    h = makeHome();
    seed({ ...USER, statusLine: { type: "command", command: "npx ccusage statusline", padding: 2 } });
    install([], h.deps, BIN);
    expect(JSON.parse(readFileSync(file(), "utf8")).statusLine).toEqual({
      type: "command",
      command: `${BIN} statusline --chain 'npx ccusage statusline'`,
      padding: 2,
    });
    const records = join(h.deps.env.XDG_STATE_HOME!, "ctx", "install");
    expect(readdirSync(records).filter((n) => n.startsWith("statusline-"))).toHaveLength(1);
    expect(readdirSync(records)).toContain("claude-plugin");
    await uninstall([], h.deps);
    expect(JSON.parse(readFileSync(file(), "utf8")).statusLine).toEqual({
      type: "command",
      command: "npx ccusage statusline",
      padding: 2,
    });
    expect(readdirSync(records)).toEqual([]);
  });

  test("keeps a foreign statusLine and gives back the original settings", async () => {
    h = makeHome();
    seed(USER);
    install([], h.deps, BIN);
    await uninstall([], h.deps);
    expect(JSON.parse(readFileSync(file(), "utf8"))).toEqual(USER);
  });

  test("writes nothing when ctx is not installed, and creates no file", async () => {
    h = makeHome();
    expect(await uninstall([], h.deps)).toBe(0);
    expect(existsSync(file())).toBe(false);
    seed(USER);
    const mtime = statSync(file()).mtimeMs;
    expect(await uninstall([], h.deps)).toBe(0);
    expect(statSync(file()).mtimeMs).toBe(mtime);
    expect(readdirSync(join(h.home, ".claude"))).toEqual(["settings.json"]);
  });

  test("--dry-run shows what it would remove and writes nothing", async () => {
    h = makeHome();
    install([], h.deps, BIN);
    const before = readFileSync(file(), "utf8");
    await uninstall(["--dry-run"], h.deps);
    expect(readFileSync(file(), "utf8")).toBe(before);
    expect(h.out()).toContain(`removed SessionStart: ${BIN} resume --hook`);
  });

  test("refuses invalid JSON with line:column", async () => {
    h = makeHome();
    mkdirSync(join(h.home, ".claude"));
    writeFileSync(file(), '{"a": 1,}');
    await expect(uninstall([], h.deps)).rejects.toThrow(`${file()}:1:9: trailing comma`);
    expect(readFileSync(file(), "utf8")).toBe('{"a": 1,}');
  });

  test("--gemini removes ctx's Gemini hooks only", async () => {
    h = makeHome();
    seed(
      { theme: "x", hooks: { AfterTool: [{ matcher: "write_file", hooks: [{ type: "command", command: "audit" }] }] } },
      ".gemini",
    );
    install(["--gemini"], h.deps, BIN);
    install([], h.deps, BIN); // Claude Code's settings must survive a Gemini uninstall
    await uninstall(["--gemini"], h.deps);
    expect(JSON.parse(readFileSync(file(".gemini"), "utf8"))).toEqual({
      theme: "x",
      hooks: { AfterTool: [{ matcher: "write_file", hooks: [{ type: "command", command: "audit" }] }] },
    });
    expect(JSON.parse(readFileSync(file(), "utf8")).hooks.Stop).toHaveLength(1);
  });
});

describe("ctx uninstall gives the user's bytes back", () => {
  // the user's own layout: statusLine first, an inline object, no final newline
  const OWN =
    '{"statusLine": {"type": "command", "command": "~/.claude/statusline.sh"},\n  "env": {"A": "1", "B": "2"},\n  "model": "opus"}';

  test("install then uninstall: the file is byte for byte what it was; a re-install keeps the first backup", async () => {
    h = makeHome();
    mkdirSync(join(h.home, ".claude"), { recursive: true });
    writeFileSync(file(), OWN);
    expect(install([], h.deps, BIN)).toBe(0);
    expect(readFileSync(file(), "utf8")).not.toBe(OWN);
    expect(install(["--force-statusline"], h.deps, BIN)).toBe(0); // ctx rewrites its own file
    expect(await uninstall([], h.deps)).toBe(0);
    expect(readFileSync(file(), "utf8")).toBe(OWN);
    expect(h.out()).toContain(`restored ${file()} byte for byte from ${file()}.bak-`);
    // nothing left to restore: a second uninstall changes nothing
    expect(await uninstall([], h.deps)).toBe(0);
    expect(readFileSync(file(), "utf8")).toBe(OWN);
  });

  test("a file the user changed after install is not restored from the backup: only ctx's entries go", async () => {
    h = makeHome();
    mkdirSync(join(h.home, ".claude"), { recursive: true });
    writeFileSync(file(), OWN);
    expect(install([], h.deps, BIN)).toBe(0);
    const edited = JSON.parse(readFileSync(file(), "utf8"));
    edited.model = "sonnet"; // the user's later change is kept
    writeFileSync(file(), JSON.stringify(edited, null, 2));
    expect(await uninstall([], h.deps)).toBe(0);
    const after = JSON.parse(readFileSync(file(), "utf8"));
    expect(after).toEqual({
      statusLine: { type: "command", command: "~/.claude/statusline.sh" },
      env: { A: "1", B: "2" },
      model: "sonnet",
    });
    expect(h.out()).not.toContain("byte for byte");
  });

  test("install --codex backs up config.toml before recording the hooks' trust", () => {
    h = makeHome();
    const codex = join(h.home, ".codex");
    mkdirSync(codex, { recursive: true });
    const own = '# mine\nmodel = "gpt-5.5"\n';
    writeFileSync(join(codex, "config.toml"), own);
    expect(install(["--codex"], h.deps, BIN)).toBe(0);
    // out of $CODEX_HOME (Codex's folder stays as it was), in the per-user state
    expect(readdirSync(codex).filter((n) => n.includes(".bak-"))).toEqual([]);
    const backup = /backup: (\S+config\.toml\.bak-\S+)/.exec(h.out())?.[1];
    expect(backup).toStartWith(join(h.deps.env.XDG_STATE_HOME!, "ctx", "install", "backups-"));
    expect(readFileSync(backup!, "utf8")).toBe(own);
    expect(readFileSync(join(codex, "config.toml"), "utf8")).toContain("trusted_hash");
  });

  test("install --project over a user-level install warns at install time that hooks would run twice", () => {
    h = makeHome();
    expect(install([], h.deps, BIN)).toBe(0);
    mkdirSync(join(h.deps.cwd, ".git"), { recursive: true });
    expect(install(["--project"], h.deps, BIN)).toBe(0);
    expect(h.out()).toContain("ctx is also wired in");
    expect(h.out()).toContain("the client runs each hook twice");
  });
});
