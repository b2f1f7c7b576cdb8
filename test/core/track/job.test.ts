import { describe, expect, test } from "bun:test";
import { hookJob, parsePlainUsage } from "../../../src/core/track/job.ts";

describe("hookJob()", () => {
  test("takes the event, the session, the project and an absolute transcript path", () => {
    const raw = { hook_event_name: "Stop", session_id: "s1", cwd: "/p", transcript_path: "/t/s1.jsonl" };
    expect(hookJob(raw, {}, "/here")).toMatchObject({
      hook: { agent: "claude", rawEvent: "Stop", event: "Stop", sessionId: "s1" },
      sessionId: "s1",
      event: "Stop",
      input: raw,
      project: "/p",
      transcriptPath: "/t/s1.jsonl",
    });
  });
  test("CLAUDE_PROJECT_DIR wins; a relative transcript path is dropped; no cwd gives the process's", () => {
    const raw = { hook_event_name: "Stop", session_id: "s1", transcript_path: "t.jsonl" };
    expect(hookJob(raw, { CLAUDE_PROJECT_DIR: "/proj" }, "/here")?.project).toBe("/proj");
    expect(hookJob(raw, {}, "/here")?.project).toBe("/here");
    expect(hookJob(raw, {}, "/here")?.transcriptPath).toBeUndefined();
  });
  test("no event or an unsafe session id: no job", () => {
    expect(hookJob({ session_id: "s1" }, {}, "/")).toBeUndefined();
    expect(hookJob({ hook_event_name: "Stop", session_id: "../x" }, {}, "/")).toBeUndefined();
  });
});

describe("parsePlainUsage()", () => {
  test("a bare usage object", () => {
    expect(parsePlainUsage('{"input_tokens":5}')).toEqual({ usage: { input_tokens: 5 }, model: undefined });
  });
  test("a whole API response: its usage and its model", () => {
    expect(parsePlainUsage('{"model":"m","usage":{"output_tokens":2}}')).toEqual({
      usage: { output_tokens: 2 },
      model: "m",
    });
  });
  test("not JSON, or not an object: the reason", () => {
    expect(parsePlainUsage("{")).toContain("not JSON");
    expect(parsePlainUsage("[1]")).toBe("the usage must be a JSON object");
    expect(parsePlainUsage("null")).toBe("the usage must be a JSON object");
  });
});
