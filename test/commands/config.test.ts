/** A broken config says so: `ctx doctor`'s config checks and `ctx config` with origins, through the binary. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

let sb: ProjectSandbox;
let env: Record<string, string>;
let userFile: string;
let projectFile: string;
let sub: string;
beforeEach(() => {
  sb = projectSandbox();
  // a person in a subfolder of a git checkout: no CLAUDE_PROJECT_DIR
  env = { ...sb.env, NO_COLOR: "1" };
  delete env.CLAUDE_PROJECT_DIR;
  mkdirSync(join(sb.project, ".git"));
  sub = join(sb.project, "src", "deep");
  mkdirSync(sub, { recursive: true });
  userFile = join(env.XDG_CONFIG_HOME!, "ctx", "config.yaml");
  projectFile = join(sb.project, ".ctx", "config.yaml");
  mkdirSync(join(env.XDG_CONFIG_HOME!, "ctx"), { recursive: true });
  mkdirSync(join(sb.project, ".ctx"), { recursive: true });
});
afterEach(() => sb.t.cleanup());

const doctor = () => runCtx(["doctor"], { env, cwd: sub });
const config = (json = false) => runCtx(["config", ...(json ? ["--json"] : [])], { env, cwd: sub });

describe("ctx doctor checks both config files", () => {
  test("invalid YAML: file:line:column, exit 1", async () => {
    writeFileSync(projectFile, "levels:\n  warning: 60\n  critical: [70\nmonitor:\n  debounce_calls: 2\n");
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`FAIL  project config: ${projectFile}:3:3: YAML Parse error`);
  });
  test("unknown key with did-you-mean, bad value, out of range, each at its line", async () => {
    writeFileSync(
      userFile,
      "monitor:\n  warning_remainin: 30\nstatusline:\n  display: weird\nlevels:\n  critical: 200\n",
    );
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("FAIL  user config: 3 problem(s):");
    expect(r.stdout).toContain(
      `${userFile}:2:3: monitor.warning_remainin: unknown key; did you mean levels.warning (formerly monitor.warning_remaining)?`,
    );
    expect(r.stdout).toContain(
      `${userFile}:4:3: statusline.display: bad value "weird": want one of raw, usable, footer, both`,
    );
    expect(r.stdout).toContain(
      `${userFile}:6:3: levels.critical: out of range: 200; want a used % (0 to 100) or tokens (130k)`,
    );
    expect(r.stdout).not.toContain("All good.");
  });
  test("an inconsistent ladder fails; deprecated keys warn with the key to use", async () => {
    writeFileSync(projectFile, "levels:\n  warning: 80\n  critical: 70\n");
    writeFileSync(userFile, "track:\n  auto_pause: 95\n");
    const r = await doctor();
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("FAIL  levels: levels.warning (80%) must be below levels.critical (70%)");
    expect(r.stdout).toContain(`${userFile}:2:3: track.auto_pause: deprecated: use levels.auto_pause: 95`);
  });
  test("a bad environment variable is named by its variable", async () => {
    const r = await runCtx(["doctor"], { env: { ...env, CTX_LEVELS_WARNING: "lots" }, cwd: sub });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(
      'CTX_LEVELS_WARNING: levels.warning: bad value "lots": want a used % (0 to 100) or tokens (130k) or off',
    );
  });
  test("valid files pass the config checks", async () => {
    writeFileSync(projectFile, "levels:\n  warning: 60\n");
    const r = await doctor();
    expect(r.stdout).toContain(`ok    project config: ${projectFile}: valid`);
    expect(r.stdout).toContain("ok    levels: warning 60%, critical 75%, auto_pause 90%");
  });
  test("hooks keep working on defaults for the broken parts", async () => {
    writeFileSync(projectFile, "levels:\n  warning: 200\nmonitor:\n  debounce_calls: 1\n");
    writeFileSync(
      join(env.TMPDIR!, "claude-ctx-s1.json"),
      JSON.stringify({ session_id: "s1", used_pct: 70, remaining_percentage: 30, timestamp: Date.now() / 1000 }),
    );
    const hook = JSON.stringify({ session_id: "s1", cwd: sb.project, hook_event_name: "PostToolUse" });
    const r = await runCtx(["monitor"], { env, cwd: sb.project, stdin: hook });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("CONTEXT WARNING: 70%"); // levels.warning 200 is ignored: the default 65 applies
  });
});

describe("ctx config", () => {
  test("prints every key with its origin: default, user file, project file, environment", async () => {
    writeFileSync(userFile, "levels:\n  warning: 60\nmonitor:\n  warning_remaining: 20\n");
    writeFileSync(projectFile, "monitor:\n  debounce_calls: 3\n");
    const r = await runCtx(["config"], { env: { ...env, CTX_STATUSLINE_DISPLAY: "both" }, cwd: sub });
    expect(r.code).toBe(0);
    const line = (key: string) => r.stdout.split("\n").find((l) => l.includes(` ${key}=`))!;
    expect(line("levels.warning")).toMatch(new RegExp(`^file:${userFile}\\s+levels\\.warning=60$`));
    expect(line("monitor.debounce_calls")).toMatch(new RegExp(`^file:${projectFile}\\s+monitor\\.debounce_calls=3$`));
    expect(line("statusline.display")).toMatch(/^env:CTX_STATUSLINE_DISPLAY\s+statusline\.display="both"$/);
    expect(line("levels.critical")).toMatch(/^default\s+levels\.critical=75$/);
    expect(r.stderr).toContain("monitor.warning_remaining: deprecated: use levels.warning: 80");
  });
  test("--json: value, origin and source of each key, the files and the problems", async () => {
    writeFileSync(projectFile, "monitor:\n  critical_remaining: 20\n");
    const r = await config(true);
    const doc = JSON.parse(r.stdout);
    expect(doc.project).toBe(sb.project);
    expect(doc.values["levels.critical"]).toEqual({
      value: 80,
      origin: "project",
      source: projectFile,
      deprecated_key: "monitor.critical_remaining",
    });
    expect(doc.values["levels.warning"]).toEqual({ value: 65, origin: "default", source: "default" });
    const env = JSON.parse(
      (await runCtx(["config", "--json"], { env: { ...sb.env, CTX_LEVELS_WARNING: "60" }, cwd: sub })).stdout,
    );
    expect(env.values["levels.warning"]).toEqual({ value: 60, origin: "environment", source: "CTX_LEVELS_WARNING" });
    expect(doc.files.map((f: { origin: string; exists: boolean }) => [f.origin, f.exists])).toEqual([
      ["user", false],
      ["project", true],
    ]);
    expect(doc.problems[0]).toMatchObject({ key: "monitor.critical_remaining", deprecated: true });
  });
});
