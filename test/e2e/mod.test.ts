/**
 * ctx's Claude Code plugin as `ctx install` installs it, with the real client: on the newest
 * client the mod warns from the client's own figure on the request after the crossing (no status
 * line, no bridge), and `ctx status` shows the same figure; on 2.1.197, which runs no mods, the
 * same install runs the settings hooks as before.
 */
import { expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { CLIENT, CLIENTS, runClaudeP, type Sandbox } from "./claude.ts";
import { stopAfterEach } from "./client-pane.ts";
import { lastUserText, type FakeApi, type Turn } from "./fake-api.ts";
import { submit } from "./submit.ts";
import type { TmuxSession } from "./tmux.ts";

// The sessions of the running test: the rig kills, stops and removes them after it.
let api: FakeApi | undefined;
let sandbox: Sandbox | undefined;
let pane: TmuxSession | undefined;
const rig = stopAfterEach();

const MODS = CLIENT.version !== CLIENTS.pinned.version;

/** A main turn that runs one Bash command with the given context size. */
function bashTurn(i: number, used: number): Turn {
  return {
    content: [{ type: "tool_use", name: "Bash", input: { command: `echo step-${i}` } }],
    usage: { input_tokens: 100, cache_read_input_tokens: used - 100, output_tokens: 20 },
  };
}

/** `ctx install` into the sandbox's home, then the status line taken out: no bridge is ever written. */
async function installWithoutStatusLine(s: Sandbox): Promise<void> {
  const r = await runCtx(["install"], { env: s.env, cwd: s.project });
  expect(r.code).toBe(0);
  const file = join(s.home, ".claude", "settings.json");
  const settings = JSON.parse(readFileSync(file, "utf8"));
  delete settings.statusLine;
  writeFileSync(file, JSON.stringify(settings, null, 2));
}

/** What each main request's last user message says: C(ritical), W(arning) or -. */
function said(a: FakeApi): string[] {
  return a.mainRequests().map((req) => {
    const text = lastUserText(req);
    return text.includes("CONTEXT CRITICAL") ? "C" : text.includes("CONTEXT WARNING") ? "W" : "-";
  });
}

/** The fast tool loop: 50 %, then 66-68 % (WARNING), then 76 % (CRITICAL) of a 200k window, and an answer. */
function toolLoop(): Turn[] {
  const used = [100_000, 132_000, 133_000, 134_000, 135_000, 135_500, 136_000, 152_000];
  const turns: Turn[] = used.map((u, i) => bashTurn(i, u));
  turns.push({
    content: [{ type: "text", text: "All done." }],
    usage: { input_tokens: 100, cache_read_input_tokens: 152_500 },
  });
  return turns;
}

test(`interactive (${CLIENT.version}), no status line: the warning on the request after the crossing; the user's line shows the figure`, async () => {
  const turns = toolLoop();
  api = await rig.api(turns);
  sandbox = await rig.sandbox({ apiUrl: api.url, extraEnv: { NO_COLOR: "1" } });
  await installWithoutStatusLine(sandbox);
  pane = await rig.client(sandbox);
  await submit(pane, "run the steps", () => api!.mainRequests().length > 0);
  const screen = await pane.waitFor(/All done\./, 90_000);
  expect(api.mainRequests()).toHaveLength(turns.length);
  expect(said(api)).toEqual(["-", "-", "W", "-", "-", "-", "-", "W", "C"]);
  // The mod's line under the prompt: the figure of the last request, as the agent was told it.
  if (MODS) expect(screen).toContain("ctx 76% used CRITICAL");
  else expect(screen).not.toContain("ctx 76% used");
}, 180_000);

test(`headless (${CLIENT.version}): one install, the warning on the request after the crossing, debounced`, async () => {
  const turns = toolLoop();
  api = await rig.api(turns);
  sandbox = await rig.sandbox({ apiUrl: api.url });
  await installWithoutStatusLine(sandbox);
  const r = await runClaudeP(sandbox, "run the steps", { timeoutMs: 120_000 });
  expect(r.code).toBe(0);
  if (process.env.CTX_E2E_DEBUG) {
    console.log(
      r.stderr,
      api
        .mainRequests()
        .map((q) => lastUserText(q))
        .join("\n=====\n"),
    );
    console.log(Bun.spawnSync(["find", sandbox.project, `${sandbox.root}/xdg/state`, "-type", "f"]).stdout.toString());
  }
  // Request n carries what the tool use of turn n-1 said: the crossing at turn 1 (66 %) warns in
  // request 2, the repeat after 5 tool uses, the escalation at turn 7 (76 %) in request 8.
  expect(said(api)).toEqual(["-", "-", "W", "-", "-", "-", "-", "W", "C"]);
  const root = join(sandbox.project, ".ctx", "state");
  const sid = r.json?.session_id as string;
  expect(existsSync(join(root, "monitor", `${sid}.mod.json`))).toBe(MODS);
  if (MODS) {
    // The mod's own words, and its figure: the settings hook stood down (one warning per request).
    const text = lastUserText(api.mainRequests()[8]!);
    expect(text).toContain("tool.call hook additional context: CONTEXT CRITICAL: 76%");
    expect(text.match(/CONTEXT CRITICAL/g)).toHaveLength(1);
    const rec = JSON.parse(readFileSync(join(root, "monitor", `${sid}.mod.json`), "utf8"));
    expect(rec).toMatchObject({ used_tokens: 152_600, window: 200_000, used_pct: 76 });
  } else {
    expect(lastUserText(api.mainRequests()[8]!)).toContain(
      "PostToolUse:Bash hook additional context: CONTEXT CRITICAL: 76%",
    );
  }
  // ctx status: the figure of the session's last request.
  const status = await runCtx(["status", "--json"], { env: sandbox.env, cwd: sandbox.project });
  const row = JSON.parse(status.stdout).sessions.find((s: { session_id: string }) => s.session_id === sid);
  expect(row).toMatchObject({ used_pct: 76 });
}, 180_000);
