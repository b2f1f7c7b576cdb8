import { describe, expect, test } from "bun:test";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { emptyFacts } from "../../../src/core/summary/facts.ts";
import { corpusFacts } from "./lines.ts";

/** One successful tool call in /p: its assistant line and its result. */
const call = (id: string, name: string, input: Record<string, unknown>) => [
  { type: "assistant", cwd: "/p", message: { content: [{ type: "tool_use", id, name, input }] } },
  { type: "user", cwd: "/p", message: { content: [{ type: "tool_result", tool_use_id: id, content: "" }] } },
];
const bash = (id: string, command: string) => call(id, "Bash", { command });

describe("files removed by commands", () => {
  test("git-sync 4f8f5e9b (Claude Code 2.1.183, bench/corpus, development half): temp scratch and a removed folder", () => {
    // Line 412: rm -rf "<scratchpad>/probe" /tmp/git-sync-helper; line 583: rm -f /tmp/git-sync-helper2 (both
    // built or written outside the project); the session had written <scratchpad>/probe/main.go.
    const f = corpusFacts("git-sync", "4f8f5e9b-9f90-4c22-88b9-988c55f45833.jsonl");
    const shown = [...f.files.values()].map((x) => [
      x.path.replace(/^.*\/(git-sync|scratchpad)\//, ""),
      x.deleted === true,
    ]);
    expect(shown).not.toContainEqual(["/tmp/git-sync-helper", true]);
    expect(shown).not.toContainEqual(["/tmp/git-sync-helper2", true]);
    expect(shown).not.toContainEqual(["probe", true]);
    expect(shown).toContainEqual(["probe/main.go", true]); // its folder was removed
    expect(shown).toContainEqual(["internal/gitproto/helper.go", false]);
    expect(shown).toContainEqual(["README.md", false]);
  });

  test("a file of the project removed by rm is still shown as deleted", () => {
    const f = emptyFacts();
    for (const e of [...bash("a", "rm docs/old.md"), ...bash("b", "rm -f /tmp/build.log")]) addEntry(f, e);
    expect([...f.files.values()].map((x) => [x.path, x.deleted])).toEqual([["/p/docs/old.md", true]]);
  });

  test("installed or built folders removed to start clean are no change; a file the session wrote there is", () => {
    const f = emptyFacts();
    const lines = [
      ...bash("a", "rm -rf node_modules package-lock.json && npm install"),
      ...bash("b", "rm -rf dist .venv web/.next"),
      ...call("w", "Write", { file_path: "/p/build/gen.ts" }),
      ...bash("c", "rm -rf build"),
      ...bash("d", "rm -rf src/dist-notes.md"),
    ];
    for (const e of lines) addEntry(f, e);
    expect([...f.files.values()].map((x) => [x.path, x.deleted]).sort()).toEqual([
      ["/p/build/gen.ts", true],
      ["/p/package-lock.json", true],
      ["/p/src/dist-notes.md", true],
    ]);
  });
});

describe("files in a moved folder", () => {
  // Claude Code 2.1.226 (gmeligio/flutter-docker-image, MIT: bench/corpus/flutter-docker-image/4382554b-….jsonl,
  // line 624): the change's files, written and edited in place, then archived with one `git mv` of their folder.
  test("a folder moved with git mv takes the files the session wrote in it to the new place", () => {
    const f = emptyFacts();
    const lines = [
      ...call("a", "Write", { file_path: "/p/openspec/changes/deb-sets/research.md", content: "x" }),
      ...call("b", "Edit", {
        file_path: "/p/openspec/changes/deb-sets/specs/spec.md",
        old_string: "a",
        new_string: "b",
      }),
      ...call("c", "Edit", { file_path: "/p/mise.toml", old_string: "a", new_string: "b" }),
      ...call("d", "Bash", {
        command: "git mv openspec/changes/deb-sets openspec/changes/archive/2026-08-09-deb-sets",
      }),
    ];
    for (const e of lines) addEntry(f, e);
    const shown = [...f.files.values()].map((x) => [x.path, x.from ?? null, x.deleted === true]).sort();
    expect(shown).toEqual([
      ["/p/mise.toml", null, false],
      [
        "/p/openspec/changes/archive/2026-08-09-deb-sets/research.md",
        "/p/openspec/changes/deb-sets/research.md",
        false,
      ],
      [
        "/p/openspec/changes/archive/2026-08-09-deb-sets/specs/spec.md",
        "/p/openspec/changes/deb-sets/specs/spec.md",
        false,
      ],
    ]);
  });
});

describe("files moved or removed on Windows (Git Bash commands, a `D:\\` working folder)", () => {
  test("oh-my-posh 223b2708 (Claude Code 2.1.205, bench/corpus, development half): a skill folder copied, then removed", () => {
    // Line 369: `cp -r .claude/skills/project-knowledge .agents/skills/ && rm -rf .claude/skills/project-knowledge`,
    // run in D:\oh-my-posh; the session had written the nine files under .claude\skills\project-knowledge.
    const f = corpusFacts("oh-my-posh", "223b2708-5340-4532-879b-05e5d9aa16f1.jsonl");
    const old = [...f.files.values()].filter((x) => x.path.startsWith("D:\\oh-my-posh\\.claude\\skills\\"));
    expect(old.length).toBe(9);
    expect(old.every((x) => x.deleted === true)).toBe(true);
    expect(f.files.get("D:\\oh-my-posh\\AGENTS.md")?.deleted).toBeUndefined();
  });

  test("/d/… and relative paths name the same file as the client's D:\\… path; a move keeps its ops", () => {
    const f = emptyFacts();
    const bash = (id: string, command: string) => [
      {
        type: "assistant",
        cwd: "D:\\proj",
        message: { role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: { command } }] },
      },
      {
        type: "user",
        cwd: "D:\\proj",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "" }] },
      },
    ];
    const write = (id: string, file_path: string) => [
      {
        type: "assistant",
        cwd: "D:\\proj",
        message: {
          role: "assistant",
          content: [{ type: "tool_use", id, name: "Write", input: { file_path, content: "x" } }],
        },
      },
      {
        type: "user",
        cwd: "D:\\proj",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: "ok" }] },
      },
    ];
    for (const e of [
      ...write("w1", "D:\\proj\\a.md"),
      ...write("w2", "D:\\proj\\b.md"),
      ...bash("b1", "rm /d/proj/a.md"),
      ...bash("b2", "git mv b.md docs/b.md"),
    ])
      addEntry(f, e);
    expect([...f.files.values()].map((x) => [x.path, x.deleted === true, x.ops])).toEqual([
      ["D:\\proj\\a.md", true, { Write: 1 }],
      ["D:\\proj\\docs\\b.md", false, { Write: 1 }],
    ]);
  });
});
