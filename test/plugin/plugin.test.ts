/**
 * ctx's Claude Code plugin (plugin/) against the newest pinned client: its mod type-checks against
 * the declarations that client carries, `claude plugin validate --strict` accepts the folder, and so
 * it does the folder `ctx install` writes (the mod naming the binary).
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { layTypes } from "../../scripts/plugin-types.ts";
import { runChild } from "../../src/io/process/child.ts";
import { CLIENTS, REPO_ROOT } from "../e2e/claude.ts";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { isolatedEnv, tempDir } from "../helpers/tmp.ts";

const CLAUDE = CLIENTS.newest.bin;
let t: ReturnType<typeof tempDir>;
let env: Record<string, string>;
beforeAll(() => {
  t = tempDir("ctx-plugin-");
  env = isolatedEnv(t.dir);
  for (const d of [env.HOME!, env.TMPDIR!]) mkdirSync(d, { recursive: true });
});
afterAll(() => t.cleanup());

/** A copy of plugin/ without what a client laid in it. */
function copyPlugin(to: string): string {
  cpSync(join(REPO_ROOT, "plugin"), to, { recursive: true, filter: (src) => !src.includes("/.claude-plugin/types") });
  return to;
}

async function validate(dir: string): Promise<{ code: number | null; report: any }> {
  const r = await runChild([CLAUDE, "plugin", "validate", "--strict", "--json", dir], {
    cwd: t.dir,
    env,
    timeoutMs: 120_000,
  });
  return { code: r.code, report: JSON.parse(r.stdout) };
}

test("the mod type-checks against the declarations of the newest client", async () => {
  const dir = copyPlugin(join(t.dir, "typed"));
  await layTypes(CLAUDE, dir);
  const tsc = join(REPO_ROOT, "node_modules", ".bin", "tsc");
  const r = await runChild([tsc, "-p", dir], { cwd: t.dir, env, timeoutMs: 120_000 });
  expect(`${r.stdout}${r.stderr}`).toBe("");
  expect(r.code).toBe(0);
}, 120_000);

test("claude plugin validate --strict accepts plugin/: one module, its hooks and calls", async () => {
  const { code, report } = await validate(copyPlugin(join(t.dir, "repo")));
  expect(code).toBe(0);
  expect(report.success).toBe(true);
  const mod = report.contents.find((c: any) => c.type === "hooks").modules[0];
  expect(mod.module).toBe("./register.ts");
  expect(mod.uses.events).toEqual(expect.arrayContaining(["classic.SessionStart", "turn.step", "tool.call"]));
  expect(mod.uses.calls).toEqual(expect.arrayContaining(["process.run", "session.usage", "ui.status"]));
}, 120_000);

test("the folder ctx install writes validates too", async () => {
  const r = await runCtx(["install"], { env });
  expect(r.code).toBe(0);
  const dir = join(env.XDG_STATE_HOME!, "ctx", "install", "claude-plugin");
  expect(r.stdout).toContain(`wrote   ${dir}/`);
  const { code, report } = await validate(dir);
  expect(code).toBe(0);
  expect(report.success).toBe(true);
  expect(await Bun.file(join(dir, "hooks", "register.ts")).text()).toContain(
    `const CTX_BIN = ${JSON.stringify(CTX_BIN)};`,
  );
}, 120_000);
