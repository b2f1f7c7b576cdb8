/**
 * Issue 29: a context budget on a 1M window. The real client without `--model` runs a 1,000,000-token
 * window (2.1.332: claude-opus-5-5 behind a custom base URL); `ctx install --budget 200k` sets the budget.
 * WARNING comes at 130k tokens and CRITICAL at 150k (not 650k / 750k), the agent and the user read the
 * budget in the texts, and the handoff summary written at CRITICAL names it.
 */
import { expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLIENT } from "./claude.ts";
import { stopAfterEach } from "./client-pane.ts";
import { allText, bashTurn } from "./fake-api.ts";
import { unwrapped } from "./tmux.ts";

const rig = stopAfterEach();

test(`e2e budget (${CLIENT.version}, 1M window): --budget 200k warns at 130k and goes CRITICAL at 150k`, async () => {
  const {
    api,
    sandbox,
    pane: tmux,
    install,
  } = await rig.installed(
    [
      bashTurn("echo one", 129_000), // 64.5 % of the budget: nothing
      bashTurn("echo two", 130_000), // 65 %: WARNING
      bashTurn("echo three", 150_000), // 75 %: CRITICAL, the summary
      bashTurn("echo four", 150_200),
      {
        content: [{ type: "text", text: "Stopping here." }],
        usage: { input_tokens: 100, cache_read_input_tokens: 150_300 },
      },
    ],
    // no --model: the client's default, a 1M window
    { install: ["--budget", "200k"], model: null, height: 70 },
  );
  expect(install.code).toBe(0);
  expect(install.stdout).toContain("context.budget=200000");
  await tmux.sendText("run the steps");
  // the CRITICAL message ends with the resume command (the exact summary since the first-week round); the
  // last reply on screen means every request has reached the fake API (the hook's line shows before the next)
  const screen = unwrapped(
    await tmux.waitFor(
      (s) => /ctx resume [^\s]*summary-|ctx resume --latest/.test(unwrapped(s)) && s.includes("Stopping here."),
      90_000,
    ),
  );
  // the user's lines: the level, its share of the budget and the window
  expect(screen).toContain("ctx: context 65% of 200k budget · 1M window used (130k/1M tokens), WARNING.");
  expect(screen).toContain("ctx: context 75% of 200k budget · 1M window used (150k/1M tokens), CRITICAL.");
  // the agent's: WARNING after the call at 130k, CRITICAL after the one at 150k, none after 129k
  const main = api.mainRequests();
  const warnedAt = main.findIndex((r) =>
    allText(r).includes("CONTEXT WARNING: 65% of the 200k context budget is used (1M window)"),
  );
  const criticalAt = main.findIndex((r) =>
    allText(r).includes("CONTEXT CRITICAL: 75% of the 200k context budget is used (1M window)"),
  );
  expect(warnedAt).toBe(2);
  expect(criticalAt).toBe(3);
  // the window really is 1M: the client's own request and the state say so
  const root = join(sandbox.project, ".ctx");
  const states = readdirSync(join(root, "state", "sessions")).filter((n) => n.endsWith(".json"));
  const state = JSON.parse(readFileSync(join(root, "state", "sessions", states[0]!), "utf8"));
  expect(state.window_size).toBe(1_000_000);
  // the summary written at CRITICAL names the budget
  const sessions = join(root, "sessions");
  let md = "";
  for (let i = 0; i < 200 && !md; i++) {
    const name = existsSync(sessions) ? readdirSync(sessions).find((n) => /^summary-.*\.md$/.test(n)) : undefined;
    if (name) md = readFileSync(join(sessions, name), "utf8");
    else await Bun.sleep(100);
  }
  expect(md).toMatch(/Context at handoff: 15% used \(150\d{3} \/ 1000000 tokens.*\), 75% of 200k budget · 1M window/);
  console.log(`client ${CLIENT.version}: ${md.split("\n").find((l) => l.includes("Context at handoff"))}`);
}, 150_000);
