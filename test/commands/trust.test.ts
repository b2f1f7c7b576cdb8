/** `ctx trust`, `--list`, `--revoke` through the binary, and what `ctx config` and `ctx doctor` say about trust. */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { TRUST_PROMPT, trustInTerminal } from "../helpers/trust.ts";
import { projectSandbox, type ProjectSandbox } from "../helpers/tmp.ts";

let sb: ProjectSandbox;
let env: Record<string, string>;
let file: string;
let sub: string;
let trustDir: string;
beforeEach(() => {
  sb = projectSandbox();
  env = { ...sb.env, NO_COLOR: "1" };
  delete env.CLAUDE_PROJECT_DIR; // a person in a subfolder of a git checkout
  mkdirSync(join(sb.project, ".git"));
  sub = join(sb.project, "src");
  mkdirSync(sub);
  mkdirSync(join(sb.project, ".ctx"));
  file = join(sb.project, ".ctx", "config.yaml");
  trustDir = join(env.XDG_STATE_HOME!, "ctx", "trust");
});
afterEach(() => sb.t.cleanup());

const ctx = (...args: string[]) => runCtx(args, { env, cwd: sub });
/** `ctx trust` typed in a terminal and confirmed. */
const trust = (cwd = sub) => trustInTerminal([], { env, cwd });
const CONFIG = 'levels:\n  warning: 60\nrespawn:\n  mode: keep-working\n  update_prompt: "note it"\n';
const configJson = async () => JSON.parse((await ctx("config", "--json")).stdout);

describe("ctx trust", () => {
  test("records the file's real path and sha256, 0600 in a 0700 folder, and lists the keys it enables", async () => {
    writeFileSync(file, CONFIG);
    const r = await trust();
    expect(r.code).toBe(0);
    const sha = new Bun.CryptoHasher("sha256").update(CONFIG).digest("hex");
    expect(r.out).toBe(
      `${file}\n  sha256 ${sha}\n  these keys would act as you (until the file changes):\n` +
        `    respawn.mode = "keep-working"\n    respawn.update_prompt = "note it"\n` +
        `Trust exactly this content? ${TRUST_PROMPT}yes\ntrusted ${file} (sha256 ${sha})\n`,
    );
    const names = readdirSync(trustDir);
    expect(names).toEqual([`${new Bun.CryptoHasher("sha256").update(file).digest("hex")}.json`]);
    const record = JSON.parse(readFileSync(join(trustDir, names[0]!), "utf8"));
    expect(record).toMatchObject({ version: 1, path: file, sha256: sha });
    expect(statSync(join(trustDir, names[0]!)).mode & 0o777).toBe(0o600);
    expect(statSync(trustDir).mode & 0o777).toBe(0o700);
  });

  test("before: the keys that act as the user are ignored, thresholds apply; after: all apply; an edit: ignored again", async () => {
    writeFileSync(file, CONFIG);
    let doc = await configJson();
    expect(doc.values["levels.warning"]).toMatchObject({ value: 60, origin: "project" });
    expect(doc.values["respawn.mode"]).toMatchObject({ value: "context", origin: "default" });
    expect(doc.ignored.map((i: { key: string }) => i.key)).toEqual(["respawn.mode", "respawn.update_prompt"]);
    expect(doc.files[1].trust.state).toBe("untrusted");
    await trust();
    doc = await configJson();
    expect(doc.values["respawn.mode"]).toMatchObject({ value: "keep-working", origin: "project" });
    expect(doc.ignored).toEqual([]);
    expect(doc.files[1].trust.state).toBe("trusted");
    writeFileSync(file, CONFIG.replace("note it", "something else"));
    doc = await configJson();
    expect(doc.values["respawn.update_prompt"].origin).toBe("default");
    expect(doc.files[1].trust.state).toBe("changed");
    expect(doc.ignored[0].reason).toContain("changed since you trusted it");
  });

  test("ctx config marks the ignored keys and lists them on stderr; ctx doctor warns with each line", async () => {
    writeFileSync(file, CONFIG);
    const c = await ctx("config");
    expect(c.stdout).toMatch(/default\s+respawn\.mode="context" {2}\(ignored: the project file is not trusted/);
    expect(c.stderr).toContain(`ctx config: 2 key(s) ignored:\n  ${file}:4:3: respawn.mode: the file is not trusted`);
    const d = await ctx("doctor");
    expect(d.stdout).toContain("warn  project config: 2 key(s) that act as you ignored, the file is not trusted");
    expect(d.stdout).toContain(`        ${file}:5:3: respawn.update_prompt`);
    await trust();
    expect((await ctx("doctor")).stdout).toMatch(/ok {4}project config: trusted \(sha256 [0-9a-f]{12}…\)/);
  });

  test("the user's own file and the environment need no trust", async () => {
    mkdirSync(join(env.XDG_CONFIG_HOME!, "ctx"), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, "ctx", "config.yaml"), "respawn:\n  mode: keep-working\n");
    env.CTX_RESPAWN_UPDATE_PROMPT = "from env";
    const doc = await configJson();
    expect(doc.values["respawn.mode"]).toMatchObject({ value: "keep-working", origin: "user" });
    expect(doc.values["respawn.update_prompt"]).toMatchObject({ value: "from env", origin: "environment" });
    expect(doc.ignored).toEqual([]);
  });

  test("a file that sets no such key: nothing is ignored, and no trust is checked", async () => {
    writeFileSync(file, "levels:\n  warning: 60\n");
    const doc = await configJson();
    expect(doc.ignored).toEqual([]);
    expect(doc.files[1].trust).toBeUndefined();
    expect((await trust()).out).toContain("it sets no key that acts as you");
  });

  test("a project reached through a symlink is trusted by its real path", async () => {
    writeFileSync(file, CONFIG);
    const link = join(sb.t.dir, "link");
    symlinkSync(sb.project, link);
    const viaLink = await trust(link);
    expect(viaLink.out).toContain(`\ntrusted ${file} `);
    expect((await configJson()).files[1].trust.state).toBe("trusted");
  });

  test("--list: trusted, changed and missing files", async () => {
    expect((await ctx("trust", "--list")).stdout).toBe("no trusted project config\n");
    writeFileSync(file, CONFIG);
    await trust();
    const other = join(sb.t.dir, "other");
    mkdirSync(join(other, ".ctx"), { recursive: true });
    writeFileSync(join(other, ".ctx", "config.yaml"), CONFIG);
    await trust(other);
    writeFileSync(join(other, ".ctx", "config.yaml"), `${CONFIG}# edited\n`);
    let lines = (await ctx("trust", "--list")).stdout.trim().split("\n").sort();
    expect(lines).toHaveLength(2);
    expect(lines.find((l) => l.endsWith(file))).toStartWith("trusted ");
    expect(lines.find((l) => l.endsWith(join(other, ".ctx", "config.yaml")))).toStartWith("changed ");
    writeFileSync(file, ""); // emptied: still there, changed
    Bun.spawnSync(["rm", "-r", other]);
    lines = (await ctx("trust", "--list")).stdout.trim().split("\n");
    expect(lines.map((l) => l.split(/\s+/)[0]).sort()).toEqual(["changed", "missing"]);
  });

  test("--revoke forgets this project's file, and says when there was nothing to forget", async () => {
    writeFileSync(file, CONFIG);
    await trust();
    expect((await ctx("trust", "--revoke")).stdout).toBe(`revoked: ${file} is no longer trusted\n`);
    expect((await configJson()).files[1].trust.state).toBe("untrusted");
    expect((await ctx("trust", "--revoke")).stdout).toBe(`not trusted: ${file}\n`);
    expect(readdirSync(trustDir)).toEqual([]);
  });

  test.each([
    "CLAUDECODE",
    "CLAUDE_CODE_SESSION_ID",
    "GEMINI_CLI",
  ])("refused in an agent's shell (%s set): the file an agent reads cannot get itself trusted", async (agentVar) => {
    writeFileSync(file, CONFIG);
    const r = await runCtx(["trust"], { env: { ...env, [agentVar]: "1" }, cwd: sub });
    expect([r.code, r.stderr]).toEqual([
      1,
      expect.stringContaining(`ctx trust is yours to run, not an agent's: ${agentVar}`),
    ]);
    expect((await configJson()).files[1].trust.state).toBe("untrusted");
    expect((await runCtx(["trust", "--list"], { env: { ...env, [agentVar]: "1" }, cwd: sub })).code).toBe(0);
  });

  test("nothing to trust: no file, a symlink, invalid YAML (exit 1); bad flags (exit 2)", async () => {
    let r = await trust();
    expect([r.code, r.out]).toEqual([1, expect.stringContaining(`no config file to trust: ${file}`)]);
    writeFileSync(join(sb.t.dir, "elsewhere.yaml"), CONFIG);
    symlinkSync(join(sb.t.dir, "elsewhere.yaml"), file);
    expect((await trust()).code).toBe(1);
    Bun.spawnSync(["rm", file]);
    writeFileSync(file, "respawn:\n  mode: [keep\n");
    r = await trust();
    expect([r.code, r.out]).toEqual([1, expect.stringContaining(`${file}:2:`)]);
    expect((await ctx("trust", "--list", "--revoke")).code).toBe(2);
    expect((await ctx("trust", "extra")).code).toBe(2);
  });
});
