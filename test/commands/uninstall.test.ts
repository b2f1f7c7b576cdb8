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

describe("ctx uninstall", () => {
  test("removes exactly ctx's entries: the file is the user's again", async () => {
    h = makeHome();
    seed(USER);
    install(["--force-statusline"], h.deps, BIN);
    install([], h.deps, "/moved/ctx"); // a second install from elsewhere only refreshes paths
    expect(await uninstall([], h.deps)).toBe(0);
    const { statusLine, ...rest } = JSON.parse(readFileSync(file(), "utf8"));
    expect(rest).toEqual({ model: USER.model, hooks: USER.hooks }); // the look-alike `ctx finalize` hook stays
    expect(statusLine).toBeUndefined(); // it was ctx's after --force-statusline; the backup has the user's
    expect(h.out()).toContain("removed PostToolUse: /moved/ctx monitor");
    expect(readdirSync(join(h.home, ".claude")).filter((f) => f.includes(".bak-"))).toHaveLength(3);
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
