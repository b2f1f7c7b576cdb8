/**
 * Issue 24, "keep my status line", with the real Claude Code client in tmux: a user with a status
 * line of their own runs `ctx install`; the client's status row then shows ctx's part and theirs,
 * their command gets the client's payload unchanged, and `ctx uninstall` puts their line back.
 */
import { afterEach, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN, runCtx } from "../helpers/ctx.ts";
import { CLAUDE_BIN, makeSandbox, TEST_MODEL, type Sandbox } from "./claude.ts";
import { startFakeApi, type FakeApi } from "./fake-api.ts";
import { startTmux, type TmuxSession } from "./tmux.ts";

let api: FakeApi | undefined;
let sandbox: Sandbox | undefined;
let tmux: TmuxSession | undefined;
afterEach(async () => {
  await tmux?.kill().catch(() => {});
  await api?.stop();
  sandbox?.cleanup();
  tmux = api = sandbox = undefined;
});

test("ctx install chains the user's status line: both show, the payload reaches theirs, uninstall restores it", async () => {
  api = await startFakeApi([
    {
      content: [{ type: "text", text: "Hello there." }],
      usage: { input_tokens: 100, cache_read_input_tokens: 130_000 },
    },
  ]);
  sandbox = await makeSandbox({ apiUrl: api.url, extraEnv: { NO_COLOR: "1" } });
  // the user's own status line: keeps the payload it is given and prints its session id
  const mine = join(sandbox.root, "my-status.sh");
  writeFileSync(
    mine,
    'cat > "$0.payload"\nprintf "MINE %s\\n" "$(sed -n \'s/.*"session_id":"\\([^"]*\\)".*/\\1/p\' "$0.payload")"\n',
  );
  const settingsFile = join(sandbox.home, ".claude", "settings.json");
  const theirs = { type: "command", command: `sh ${mine}`, padding: 1 };
  writeFileSync(settingsFile, JSON.stringify({ statusLine: theirs }, null, 2));

  const installed = await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project });
  expect(installed.code).toBe(0);
  expect(installed.stdout).toContain(`chained statusLine: ctx statusline shows yours (sh ${mine}) beside ctx's`);
  expect(JSON.parse(readFileSync(settingsFile, "utf8")).statusLine).toEqual({
    ...theirs,
    command: `${CTX_BIN} statusline --chain 'sh ${mine}'`,
  });

  tmux = await startTmux({
    dir: sandbox.tmp,
    command: [CLAUDE_BIN, "--model", TEST_MODEL],
    env: sandbox.env,
    cwd: sandbox.project,
  });
  await tmux.waitFor(/for shortcuts|❯/, 30_000);
  await tmux.sendText("say hello");
  // ctx's part, then the user's, on one row: the session id came from the client's payload
  const screen = await tmux.waitFor(/65% 130k\/200k │ MINE [0-9a-f-]{36}/, 30_000);
  const sid = /MINE ([0-9a-f-]{36})/.exec(screen)![1]!;
  const payload = JSON.parse(readFileSync(`${mine}.payload`, "utf8"));
  expect(payload.session_id).toBe(sid);
  expect(payload.context_window.context_window_size).toBe(200_000);
  expect(payload.model.id).toBe(TEST_MODEL);
  await tmux.kill();
  tmux = undefined;

  const removed = await runCtx(["uninstall"], { env: sandbox.env, cwd: sandbox.project });
  expect(removed.code).toBe(0);
  // the file is untouched since install: the user's bytes come back exactly
  expect(removed.stdout).toContain("byte for byte");
  expect(readFileSync(settingsFile, "utf8")).toBe(JSON.stringify({ statusLine: theirs }, null, 2));
}, 120_000);
