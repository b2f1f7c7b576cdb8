/**
 * Issue 20 with the real client: ctx run as a hook of the current Claude Code (no --model, so its
 * default is a 1M Opus) about a session that client 2.1.39 wrote with claude-opus-4-6 at 200k (it
 * auto-compacted at 167k). The finalize and the monitor judge that session against 200k.
 * The transcript is an excerpt of a real session: github.com/marot/spotter, MIT, commit
 * 8cc42b0bd39d04e71e509d7d58e6782ab435329f (test/fixtures/transcripts/spotter-window/README.md).
 */
import { expect, test } from "bun:test";
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { CTX_BIN } from "../helpers/ctx.ts";
import { CLIENT, hookEntry, runClaudeP } from "./claude.ts";
import { stopAfterEach } from "./client-pane.ts";

const EXCERPT = join(import.meta.dir, "..", "fixtures", "transcripts", "spotter-window", "auto-compact-200k.jsonl");
const SID = "258c7280-ae70-4798-800f-63464d01a85d";

const rig = stopAfterEach();

test(`under the real client ${CLIENT.version} (1M default), a 2.1.39 session keeps its 200k window`, async () => {
  const api = await rig.api([
    { content: [{ type: "text", text: "Done." }], usage: { input_tokens: 100, output_tokens: 5 } },
  ]);
  const sandbox = await rig.sandbox({ apiUrl: api.url, settings: {}, extraEnv: { CTX_DEBUG: "1" } });
  const out = join(sandbox.root, "out");
  mkdirSync(out);
  // The old session up to its peak (166,759 tokens), before the client compacted: what the monitor reads.
  const lines = readFileSync(EXCERPT, "utf8").split("\n");
  const atPeak = join(sandbox.root, `${SID}.jsonl`);
  writeFileSync(
    atPeak,
    `${lines
      .slice(
        0,
        lines.findIndex((l) => l.includes('"compact_boundary"')),
      )
      .join("\n")}\n`,
  );
  const payload = { session_id: SID, transcript_path: atPeak, cwd: sandbox.project, hook_event_name: "PostToolUse" };
  writeFileSync(join(out, "payload.json"), JSON.stringify({ ...payload, tool_name: "Bash", tool_input: {} }));
  // One Stop hook of the real client runs both, as its hooks run ctx (its environment, its process tree).
  const hook = join(sandbox.root, "old-session.sh");
  writeFileSync(
    hook,
    [
      "#!/bin/sh",
      "cat >/dev/null",
      `"${CTX_BIN}" finalize --session ${SID} --transcript "${EXCERPT}" >"${out}/finalize.txt" 2>"${out}/finalize.err"`,
      `CTX_LEVELS_CRITICAL=90 CTX_LEVELS_AUTO_PAUSE=95 "${CTX_BIN}" monitor <"${out}/payload.json" >"${out}/monitor.json"`,
      "exit 0",
    ].join("\n"),
  );
  chmodSync(hook, 0o755);
  writeFileSync(join(sandbox.home, ".claude", "settings.json"), JSON.stringify({ hooks: { Stop: hookEntry(hook) } }));

  const r = await runClaudeP(sandbox, "say done", { model: null, timeoutMs: 90_000 });
  expect(r.code).toBe(0);
  // The client ran its default Opus model and, from ctx's hook, was found with nothing chosen.
  expect(api.mainRequests()[0]!.body.model).toMatch(/^claude-opus-/);
  const choice = JSON.parse(readFileSync(join(sandbox.project, ".ctx", "state", "window", `${SID}.json`), "utf8"));
  expect(choice.choice).toEqual({ found: true, model: null, source: null });
  const md = readFileSync(readFileSync(join(out, "finalize.txt"), "utf8").trim(), "utf8");
  expect(md).toContain("- Context at handoff: 39% used (77334 / 200000 tokens, peak 83%, 1 compaction: 1 auto)");
  expect(readFileSync(join(out, "finalize.err"), "utf8")).toContain("finalize: window 200000 (compaction)");
  const warned = JSON.parse(readFileSync(join(out, "monitor.json"), "utf8")).hookSpecificOutput.additionalContext;
  expect(warned).toStartWith("CONTEXT WARNING: 83% of the context window is used");
}, 120_000);
