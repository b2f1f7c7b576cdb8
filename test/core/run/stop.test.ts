/** Only a leg ctx run started, at its restart level, after a Claude Code tool call, is stopped. */
import { expect, test } from "bun:test";
import { legStop, RUN_SESSION_VAR } from "../../../src/core/run/stop.ts";

const SID = "0327f453-5fb4-4e4b-925f-1ccbfbbfcb19";
const env = { [RUN_SESSION_VAR]: SID };

test("the leg's own session at the restart level is stopped with a reason", () => {
  expect(legStop(env, "PostToolUse", SID, 62, 60)).toEqual({
    continue: false,
    stopReason: "ctx run: context at 62% (restart at 60%); the run goes on in a fresh leg from the summary",
  });
});

test("nothing else is ever stopped", () => {
  expect(legStop({}, "PostToolUse", SID, 99, 60)).toBeUndefined(); // not under ctx run
  expect(legStop(env, "PostToolUse", "another-session", 99, 60)).toBeUndefined(); // a nested client
  expect(legStop(env, "PostToolUse", SID, 59, 60)).toBeUndefined(); // below the level
  expect(legStop(env, "PostToolUseFailure", SID, 99, 60)).toBeUndefined();
  expect(legStop(env, "AfterTool", SID, 99, 60)).toBeUndefined(); // Gemini CLI: not driven by ctx run
  expect(legStop(env, "PostToolUse", SID, 99, false)).toBeUndefined(); // respawn.restart_at off
});
