/**
 * `ctx install` wires the real Claude Code client: the settings it writes make
 * the hooks fire (monitor's warning reaches the fake API, track leaves its
 * state files, the user's own hook still runs), `ctx doctor` agrees, and after
 * `ctx uninstall` the user's file is back and ctx's hooks no longer fire.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { dirname, join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { runClaudeP } from "./claude.ts";
import { stopAfterEach } from "./client-pane.ts";
import { lastUserText, type Turn } from "./fake-api.ts";

const rig = stopAfterEach();

const turns: Turn[] = [
  {
    content: [{ type: "tool_use", name: "Bash", input: { command: "echo step-1", description: "step" } }],
    usage: { input_tokens: 100, cache_read_input_tokens: 131_900, output_tokens: 20 },
  },
  {
    content: [{ type: "text", text: "Done." }],
    usage: { input_tokens: 100, cache_read_input_tokens: 132_500, output_tokens: 10 },
  },
];

test("e2e: the hooks ctx install wrote fire in the real client; uninstall restores the user's settings", async () => {
  const api = await rig.api((_req, i) => turns[i % turns.length]);
  const userHook = {
    matcher: "Bash",
    hooks: [{ type: "command", command: 'touch "$CLAUDE_PROJECT_DIR/user-hook-ran"' }],
  };
  const original = { cleanupPeriodDays: 30, hooks: { PostToolUse: [userHook] } };
  const sandbox = await rig.sandbox({ apiUrl: api.url, settings: original });
  const env = { ...sandbox.env, PATH: `${dirname(CTX_BIN)}:${sandbox.env.PATH}` };

  const inst = await runCtx(["install"], { env, cwd: sandbox.project });
  expect(inst.code).toBe(0);
  const bin = realpathSync(CTX_BIN);
  const settingsPath = join(sandbox.home, ".claude", "settings.json");
  const settings = JSON.parse(readFileSync(settingsPath, "utf8"));
  expect(settings.statusLine.command).toBe(`${bin} statusline`);
  expect(settings.hooks.PostToolUse[0]).toEqual(userHook);

  const r = await runClaudeP(sandbox, "run step 1", { timeoutMs: 90_000 });
  expect(r.code).toBe(0);
  // monitor: 132,000 of 200,000 tokens (66 %) after the Bash call → the warning is in the next request.
  const main = api.mainRequests();
  expect(main).toHaveLength(2);
  // The settings hook's words (2.1.197), or ctx's mod's (clients that run mods: `ctx install` wrote both).
  expect(lastUserText(main[1]!)).toMatch(/(PostToolUse:Bash|tool\.call) hook additional context: CONTEXT WARNING/);
  // track: per-session state in <project>/.ctx and the per-user index entry.
  const sid = r.json.session_id as string;
  const state = JSON.parse(readFileSync(join(sandbox.project, ".ctx", "state", "sessions", `${sid}.json`), "utf8"));
  expect(state.session_id).toBe(sid);
  expect(state.tool_calls).toBeGreaterThanOrEqual(1);
  expect(existsSync(join(sandbox.env.XDG_STATE_HOME!, "ctx", "sessions", `${sid}.json`))).toBe(true);
  expect(existsSync(join(sandbox.project, "user-hook-ran"))).toBe(true);

  const doc = await runCtx(["doctor"], { env, cwd: sandbox.project });
  expect(doc.stdout).toContain(`ok    binary on PATH: ${CTX_BIN}`);
  expect(doc.stdout).toContain("ok    hook SessionStart: ctx resume --hook: timeout 30 s");
  expect(doc.stdout).toContain(`ok    statusLine: ${bin} statusline`);
  expect(doc.stdout).not.toContain("FAIL  hook");

  const un = await runCtx(["uninstall"], { env, cwd: sandbox.project });
  expect(un.code).toBe(0);
  expect(JSON.parse(readFileSync(settingsPath, "utf8"))).toEqual(original);
  const sessionsDir = join(sandbox.project, ".ctx", "state", "sessions");
  const before = readdirSync(sessionsDir).length;
  const again = await runClaudeP(sandbox, "run step 1 again", { timeoutMs: 90_000 });
  expect(again.code).toBe(0);
  expect(readdirSync(sessionsDir)).toHaveLength(before); // track no longer runs
  expect(lastUserText(api.mainRequests()[3]!)).not.toContain("CONTEXT WARNING");
}, 180_000);
