/**
 * Driving the real OpenCode (`opencode-ai`, its native binary) offline against the fake Anthropic
 * API: an isolated world (HOME, XDG_*, TMPDIR), the per-config-folder `npm install` of its plugin
 * package made a no-op (an empty node_modules and a lock file naming it), the model's limits set in
 * opencode.json. The binary: CTX_OPENCODE_BIN, else node_modules/.bin/opencode.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";

/** The opencode binary the e2e tests run. */
export const OPENCODE_BIN =
  process.env.CTX_OPENCODE_BIN ?? join(import.meta.dir, "..", "..", "node_modules", ".bin", "opencode");

/** True when the binary is there to run. */
export const HAVE_OPENCODE = existsSync(OPENCODE_BIN);

/** The plugin package OpenCode installs into each config folder (its version is the binary's). */
const PLUGIN_LOCK = '{"packages":{"":{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}}}';

/** OpenCode's environment for a world whose HOME and XDG_* `env` already isolates. */
export function openCodeEnv(env: Record<string, string>): Record<string, string> {
  return { ...env, OPENCODE_DISABLE_MODELS_FETCH: "1", OPENCODE_DISABLE_AUTOUPDATE: "1", OPENCODE_DISABLE_SHARE: "1" };
}

/**
 * Writes the user's opencode.json (the fake API's base URL, a model limit of `context`/`output`,
 * bash and edit allowed) and seeds the plugin-package installs of the user's and the project's folder.
 */
export function openCodeWorld(
  env: Record<string, string>,
  project: string,
  apiUrl: string,
  limit: { context: number; output: number; input?: number },
  extra: Record<string, unknown> = {},
): string {
  const config = join(env.XDG_CONFIG_HOME!, "opencode");
  for (const d of [config, join(project, ".opencode")]) {
    mkdirSync(join(d, "node_modules"), { recursive: true });
    writeFileSync(join(d, "package-lock.json"), PLUGIN_LOCK);
  }
  const file = join(config, "opencode.json");
  writeFileSync(
    file,
    JSON.stringify({
      model: "anthropic/claude-sonnet-4-5",
      small_model: "anthropic/claude-sonnet-4-5",
      autoupdate: false,
      share: "disabled",
      permission: { bash: "allow", edit: "allow", webfetch: "deny" },
      provider: {
        anthropic: {
          options: { baseURL: `${apiUrl}/v1`, apiKey: "sk-ant-fake-key" },
          models: { "claude-sonnet-4-5": { limit } },
        },
      },
      ...extra,
    }),
  );
  return file;
}

/** Every file and folder under `dir` (folders as `name/`), with the files' text: what a round trip must keep. */
export function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) {
        out[`${relative(dir, p)}/`] = "";
        walk(p);
      } else out[relative(dir, p)] = readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}

/** Runs the real opencode (async: the fake API answers from this process), in `cwd`, to its end. */
export async function runOpenCode(
  args: string[],
  env: Record<string, string>,
  cwd: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  // OpenCode takes its directory from PWD: the project's, not the test runner's.
  const p = Bun.spawn([OPENCODE_BIN, ...args], { cwd, env: { ...env, PWD: cwd }, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text()]);
  return { code: await p.exited, stdout, stderr };
}
