import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { patchChanges, scriptPatches } from "../../../src/core/agents/codex-patch.ts";
import { emptyFacts, type Facts } from "../../../src/core/summary/facts.ts";

/**
 * The development half of bench/corpus holds no Codex patch (its two rollouts only run `exec_command`), so
 * these lines keep the shape of the rollout recorded from the real Codex 0.169.0
 * (test/fixtures/codex/rollout-compact.jsonl, lines 15 and 18: a `custom_tool_call` `apply_patch` and its
 * output) and the patch grammar of Codex's own `apply_patch` tool (`delete_hunk: "*** Delete File: "
 * filename LF`, `change_move: "*** Move to: " filename LF`, read in the 0.169.0 binary).
 */
const FIXTURE = join(import.meta.dir, "..", "..", "fixtures", "codex", "rollout-compact.jsonl");
const recorded = readFileSync(FIXTURE, "utf8")
  .split("\n")
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as Record<string, any>);

/** The recorded call and output lines with another call id, tool, input and output. */
function call(id: string, name: string, input: string): Record<string, any> {
  const line = structuredClone(recorded[14]!);
  expect(line.payload.type).toBe("custom_tool_call");
  Object.assign(line.payload, { call_id: id, name, input });
  return line;
}
function output(id: string, text: string): Record<string, any> {
  const line = structuredClone(recorded[17]!);
  expect(line.payload.type).toBe("custom_tool_call_output");
  Object.assign(line.payload, { call_id: id, output: text });
  return line;
}
function shell(id: string, cmd: string, code = 0, out = ""): Record<string, any>[] {
  const use = structuredClone(recorded[9]!);
  Object.assign(use.payload, { call_id: id, arguments: JSON.stringify({ cmd }) });
  const res = structuredClone(recorded[12]!);
  Object.assign(res.payload, { call_id: id, output: `Process exited with code ${code}\nOutput:\n${out}` });
  return [use, res];
}
function files(f: Facts) {
  return [...f.files.values()].map((x) => [x.path, x.deleted ? "deleted" : x.from ? `from ${x.from}` : "changed"]);
}
const OK = "Exit code: 0\nWall time: 0 seconds\nOutput:\nSuccess. Updated the following files:\n";

describe("Codex patches: the files they changed", () => {
  test("the recorded apply_patch adds notes.txt (Codex 0.169.0)", () => {
    const f = emptyFacts();
    for (const e of recorded) addEntry(f, e);
    expect(files(f)).toEqual([["notes.txt", "changed"]]);
  });

  test("*** Delete File: shown as deleted, not modified; *** Move to: under its new path", () => {
    const f = emptyFacts();
    addEntry(f, call("c1", "apply_patch", "*** Begin Patch\n*** Add File: scratch.md\n+x\n*** End Patch\n"));
    addEntry(f, output("c1", `${OK}A scratch.md\n`));
    const patch =
      "*** Begin Patch\n*** Delete File: scratch.md\n*** Delete File: old.go\n*** Update File: a.go\n*** Move to: b.go\n@@\n-x\n+y\n*** End Patch\n";
    addEntry(f, call("c2", "apply_patch", patch));
    addEntry(f, output("c2", `${OK}D scratch.md\nD old.go\nM b.go\n`));
    expect(files(f)).toEqual([
      ["scratch.md", "deleted"],
      ["old.go", "deleted"],
      ["b.go", "from a.go"],
    ]);
  });

  test("a patch run by exec_command (`apply_patch <<'EOF'`, also after `cd DIR &&`)", () => {
    const f = emptyFacts();
    const heredoc =
      "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: cmd/main.go\n@@\n-a\n+b\n*** End Patch\nEOF";
    for (const e of shell("s1", heredoc, 0, "Success. Updated the following files:\nM cmd/main.go\n")) addEntry(f, e);
    const cd = "cd web && apply_patch <<'PATCH'\n*** Begin Patch\n*** Delete File: src/old.ts\n*** End Patch\nPATCH";
    for (const e of shell("s2", cd)) addEntry(f, e);
    // A script that fails changes nothing.
    for (const e of shell("s3", heredoc.replace("main.go", "other.go"), 1)) addEntry(f, e);
    expect(files(f)).toEqual([
      ["cmd/main.go", "changed"],
      ["web/src/old.ts", "deleted"],
    ]);
  });

  test("a patch a code-mode `exec` script applies through tools.apply_patch", () => {
    const f = emptyFacts();
    const js =
      'const r = await tools.apply_patch("*** Begin Patch\\n*** Add File: docs/new.md\\n+hi\\n*** Delete File: docs/old.md\\n*** End Patch\\n");\ntext(r);';
    addEntry(f, call("x1", "exec", js));
    addEntry(f, output("x1", "Success. Updated the following files:\nA docs/new.md\nD docs/old.md\n"));
    expect(files(f)).toEqual([
      ["docs/new.md", "changed"],
      ["docs/old.md", "deleted"],
    ]);
    // Refused by Codex: nothing changed.
    const g = emptyFacts();
    addEntry(g, call("x2", "exec", js));
    addEntry(g, output("x2", "apply_patch verification failed: Failed to find expected lines"));
    expect(files(g)).toEqual([]);
  });

  test("scripts that only mention a patch change nothing", () => {
    expect(scriptPatches("cat notes/*** Begin Patch.txt", "shell")).toEqual([]);
    expect(scriptPatches("echo '*** Begin Patch\n*** Delete File: a\n*** End Patch'", "shell")).toEqual([]);
    expect(scriptPatches('await tools.exec_command({cmd: "ls"})', "code")).toEqual([]);
    expect(patchChanges("*** Begin Patch\n*** Update File: a\n*** Move to: b\n*** End Patch")).toEqual([
      { op: "update", path: "a", moveTo: "b" },
    ]);
  });
});
