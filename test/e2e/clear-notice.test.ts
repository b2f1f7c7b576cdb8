/**
 * Issue 29: after /clear the user sees one line naming the summary the fresh session got and its chain
 * (the SessionStart hook's systemMessage), and the status line shows `↻ 2` until the first reply.
 */
import { expect, test } from "bun:test";
import { CLIENT } from "./claude.ts";
import { stopAfterEach } from "./client-pane.ts";
import { bashTurn } from "./fake-api.ts";
import { unwrapped } from "./tmux.ts";

const rig = stopAfterEach();

test(`e2e (${CLIENT.version}): after /clear one line names the summary and its chain; the status line shows ↻ 2`, async () => {
  // no --model: the client's default, a 1M window
  const { pane: tmux } = await rig.installed(
    [
      bashTurn("echo one", 100_000),
      bashTurn("echo two", 152_000), // CRITICAL under the default 200k budget: the summary is written
      {
        content: [{ type: "text", text: "Step saved." }],
        usage: { input_tokens: 100, cache_read_input_tokens: 152_300 },
      },
    ],
    { model: null, height: 60 },
  );
  await tmux.sendText("Write the quarterly report");
  await tmux.waitFor((s) => s.includes("Step saved."), 90_000);
  await tmux.sendText("/clear");
  const screen = unwrapped(await tmux.waitFor((s) => unwrapped(s).includes("this session continues chain"), 60_000));
  expect(screen).toMatch(
    /ctx: ↻ 2 · this session continues chain (chain-[0-9a-f]{8}) from summary-\1-\d{8}-\d{6}\.md \(its summary is in the agent's context\)\. Press Enter/,
  );
  // the status line says it is a continued session until the first reply
  const line = await tmux.waitFor((s) => /│ ↻ 2 │/.test(s), 30_000);
  expect(line).toContain("↻ 2");
  console.log(`client ${CLIENT.version}: ${screen.match(/ctx: ↻ 2[^\n]*?Press Enter/)?.[0]}`);
}, 180_000);
