/**
 * The handoff summary from a real Gemini CLI 0.61.0 chat log
 * (test/fixtures/gemini/chat-tools-session.jsonl, recorded by test/e2e/record-gemini-fixtures.ts).
 */
import { describe, expect, test } from "bun:test";
import { join } from "node:path";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { emptyFacts } from "../../../src/core/summary/facts.ts";
import type { ModelTotals } from "../../../src/core/track/state.ts";
import { readNewUsage } from "../../../src/io/transcript/stream-usage.ts";
import { streamEntries } from "../../../src/io/transcript/stream.ts";
import { renderSession } from "../../helpers/summary.ts";

const LOG = join(import.meta.dir, "..", "..", "fixtures", "gemini", "chat-tools-session.jsonl");
const NOTES = "/tmp/ctx-fixture/project/notes.md";

function facts() {
  const f = emptyFacts();
  streamEntries(LOG, (e) => addEntry(f, e));
  return f;
}

describe("a Gemini CLI chat log", () => {
  test("gives the request, the tool calls (each once), the changed file and the failed command", () => {
    const f = facts();
    expect(f.firstRequest).toBe("Write the notes.");
    expect(f.userRequests).toBe(1); // the <session_context> setup message and tool results are not requests
    expect(f.toolResults).toBe(4);
    expect(f.successes).toBe(3);
    expect([...f.files.values()]).toEqual([{ path: NOTES, ops: { write_file: 1, replace: 1 } }]);
    expect(f.commands.items).toEqual([
      { command: "echo one", ok: true },
      { command: "ls /nonexistent-ctx-fixture", ok: false },
    ]);
    expect(f.errors.items).toHaveLength(1);
    expect(f.errors.items[0]).toMatchObject({ tool: "run_shell_command", target: "ls /nonexistent-ctx-fixture" });
    expect(f.errors.items[0]!.message).toContain("No such file or directory");
    expect(f.lastSuccess).toBe(`replace ${NOTES}`);
    expect(f.lastAgentText).toBe("Notes written; the listing failed.");
    expect(f.peakTokens).toBe(14000);
    expect(f.model).toBe("gemini-2.5-flash");
  });

  test("renders into the handoff summary", () => {
    const f = facts();
    const text = renderSession(f, {
      team: null,
      usage: {
        usedPct: 1,
        usedTokens: 14000,
        windowSize: 1_048_576,
        peakPct: 1,
        compactions: 0,
        model: f.model,
        toolCalls: 4,
      },
      generatedAt: "2026-01-01T00:00:00.000Z",
      transcriptPath: LOG,
      gitStatus: null,
    });
    expect(text).toContain("> Write the notes.");
    expect(text).toContain(`- \`${NOTES}\` (write_file, replace; this session)`);
    expect(text).toContain(`## Last meaningful step\n- replace ${NOTES} (this session)`);
    expect(text).toContain(
      "## Decisions and reasons (the agent's last messages)\n- Notes written; the listing failed.",
    );
    expect(text).toContain("- FAIL `ls /nonexistent-ctx-fixture`");
    // A failed `ls` is a lookup: counted and shown as FAIL, never an open error.
    expect(text).toContain("## Unresolved errors\n- (none)");
    expect(text).toContain("4 tool calls: 3 succeeded, 1 failed; 1 file changed; 2 commands; 1 user message");
  });

  test("token totals count each gemini record once (it is written again with its tool calls)", () => {
    const models: Record<string, ModelTotals> = {};
    const got = readNewUsage(LOG, null, models, 1 << 24);
    expect(got).toBeDefined();
    expect(models["gemini-2.5-flash"]).toEqual({
      input_tokens: 8000 + 9500 + 11000 + 12500 + 14000,
      output_tokens: 50,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
      requests: 5,
    });
    // Read again from the cursor: nothing new.
    const again = readNewUsage(LOG, got!.cursor, models, 1 << 24);
    expect(again?.deltas).toEqual({});
  });
});
