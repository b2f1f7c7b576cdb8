/**
 * Issue 24: the CRITICAL message the user sees says what to do. The real Claude Code client in tmux
 * (fake API, ctx installed by `ctx install`) crosses CRITICAL on a tool call; the client shows
 * `ctx track`'s systemMessage under it, with where the handoff stands and the instruction: type
 * /clear once the agent has finished its step (the fresh session starts from the summary), or
 * `ctx resume <the summary's path>`.
 */
import { expect, test } from "bun:test";
import { stopAfterEach } from "./client-pane.ts";
import { bashTurn } from "./fake-api.ts";
import { unwrapped } from "./tmux.ts";

const rig = stopAfterEach();

test("e2e: the user's CRITICAL message says to type /clear (or ctx resume)", async () => {
  const { pane: tmux } = await rig.installed(
    [
      bashTurn("echo one", 120_000),
      bashTurn("echo two", 152_000), // 76 %: CRITICAL on this call's hooks
      bashTurn("echo three", 152_200),
      {
        content: [{ type: "text", text: "Stopping here." }],
        usage: { input_tokens: 100, cache_read_input_tokens: 152_300 },
      },
    ],
    { height: 60 },
  );
  await tmux.sendText("run the steps");
  // the exact summary, named while it is being written: the command resumes this session's work (waited for
  // whole: the client may draw the line before the path's last part on a loaded machine; the timeout shows it)
  const CRITICAL =
    /says: ctx: context 76% used \(15\dk\/200k tokens\), CRITICAL\. The agent is told to finish its step and leave the work resumable\. Handoff: (?:ctx finalize is writing the handoff summary now \((\S+)\)|the handoff summary is written: (\S+))\. You: when the agent has finished its step, type \/clear; the fresh session starts from the summary \(or quit and run 'ctx resume (\S+)'\)\./;
  const screen = unwrapped(await tmux.waitFor((s) => CRITICAL.test(unwrapped(s)), 60_000));
  const m = CRITICAL.exec(screen);
  expect(m).not.toBeNull();
  expect(m![3]).toBe(m![1] ?? m![2]);
  expect(m![3]).toMatch(/\/\.ctx\/sessions\/summary-\S+-\d{8}-\d{6}\.md$/);
}, 120_000);
