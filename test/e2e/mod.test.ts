/**
 * ctx's Claude Code plugin as `ctx install` installs it, with the real client: on the newest
 * client the mod warns from the client's own figure on the request after the crossing (no status
 * line, no bridge), and `ctx status` shows the same figure; on 2.1.197, which runs no mods, the
 * same install runs the settings hooks as before.
 */
import { afterEach, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { CLIENT, CLIENTS, makeSandbox, runClaudeP, type Sandbox } from "./claude.ts";
import { lastUserText, startFakeApi, type FakeApi, type Turn } from "./fake-api.ts";

let api: FakeApi | undefined;
let sandbox: Sandbox | undefined;
afterEach(async () => {
  await api?.stop();
  sandbox?.cleanup();
  api = sandbox = undefined;
});

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

test(`headless (${CLIENT.version}): one install, the warning on the request after the crossing, debounced`, async () => {
  // 200k window: 50 %, then 66-68 % (WARNING), then 76 % (CRITICAL).
  const used = [100_000, 132_000, 133_000, 134_000, 135_000, 135_500, 136_000, 152_000];
  const turns: Turn[] = used.map((u, i) => bashTurn(i, u));
  turns.push({
    content: [{ type: "text", text: "All done." }],
    usage: { input_tokens: 100, cache_read_input_tokens: 152_500 },
  });
  api = await startFakeApi(turns);
  sandbox = await makeSandbox({ apiUrl: api.url });
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
    console.log(Bun.spawnSync(["find", sandbox.project, sandbox.root + "/xdg/state", "-type", "f"]).stdout.toString());
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
