/**
 * Issue 27: whether the client's default Opus runs at 1M depends on the user's plan, which no transcript
 * names; the user's other sessions of the project (side by side in the client's folder) tell it. The
 * siblings are excerpts of real development-half sessions (bench/corpus/README.md names each source):
 * agentv f6b7329a (2.1.62, its commit signed "Claude Opus 4.6": the plain model) and starcar 64c15364
 * (2.1.217, `/model` answered "Opus 4.8 (1M context)").
 */
import { afterEach, beforeEach, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, rmSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { kinWindow } from "../../../src/io/session/kin-window.ts";
import { runCtx } from "../../helpers/ctx.ts";
import { projectSandbox, type ProjectSandbox } from "../../helpers/tmp.ts";

const CORPUS = join(import.meta.dir, "..", "..", "..", "bench", "corpus");
const PLAIN = "f6b7329a-914c-4f62-8090-4e29b032b173";
const ONE_M = "64c15364-0933-4d6d-9b2e-d1ddbc918f9f";
const SID = "5d0c2a8e-3b7f-4e21-9a64-0c1d2e3f4a5b";

/** The first `n` lines of a corpus transcript. */
function excerpt(folder: string, id: string, n: number): string {
  const lines = readFileSync(join(CORPUS, folder, `${id}.jsonl`), "utf8")
    .split("\n")
    .slice(0, n);
  return `${lines.join("\n")}\n`;
}

/** A short session of `model` on client 2.1.84 (the 1M default's era) between two times. */
function session(model: string, from: string, to: string): string {
  const base = { sessionId: SID, version: "2.1.84", cwd: "/tmp/p", isSidechain: false };
  return `${[
    { ...base, type: "user", timestamp: from, message: { role: "user", content: "add the retry flag" } },
    {
      ...base,
      type: "assistant",
      timestamp: to,
      message: {
        model,
        role: "assistant",
        content: [{ type: "text", text: "Added the retry flag." }],
        usage: { input_tokens: 40_000, output_tokens: 10, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 },
      },
    },
  ]
    .map((l) => JSON.stringify(l))
    .join("\n")}\n`;
}

let sb: ProjectSandbox;
let dir: string;
let transcript: string;
beforeEach(() => {
  sb = projectSandbox();
  dir = join(sb.t.dir, "projects", "-tmp-p");
  mkdirSync(dir, { recursive: true });
  transcript = join(dir, `${SID}.jsonl`);
  writeFileSync(transcript, session("claude-opus-4-6", "2026-03-26T09:00:00.000Z", "2026-03-26T09:30:00.000Z"));
});
afterEach(() => sb.t.cleanup());

const END = Date.parse("2026-03-26T09:30:00.000Z");

describe("kinWindow: the user's other sessions of the project", () => {
  test("an earlier session whose commit signs the plain model: not the 1M variant", () => {
    writeFileSync(join(dir, `${PLAIN}.jsonl`), excerpt("agentv", PLAIN, 26));
    expect(kinWindow(transcript, "claude-opus-4-6", END)).toEqual({
      model: "claude-opus-4-6",
      oneM: false,
      by: "project_sessions",
    });
    // It says nothing of another model.
    expect(kinWindow(transcript, "claude-opus-4-7", END)).toBeUndefined();
  });

  test("a session begun after this one ended, a symlink, another name or the session itself is not read", () => {
    const early = Date.parse("2026-03-25T00:00:00.000Z"); // before the sibling's first line (00:33)
    writeFileSync(join(dir, `${PLAIN}.jsonl`), excerpt("agentv", PLAIN, 26));
    expect(kinWindow(transcript, "claude-opus-4-6", early)).toBeUndefined();
    const other = join(sb.t.dir, "elsewhere.jsonl");
    writeFileSync(other, excerpt("agentv", PLAIN, 26));
    const d2 = join(sb.t.dir, "p2");
    mkdirSync(d2);
    const own = join(d2, `${SID}.jsonl`);
    writeFileSync(own, excerpt("agentv", PLAIN, 26)); // the session itself signs: that is its own evidence
    symlinkSync(other, join(d2, "0f1e2d3c-4b5a-4968-8776-655443322110.jsonl"));
    writeFileSync(join(d2, "notes.jsonl.bak"), excerpt("agentv", PLAIN, 26));
    writeFileSync(join(d2, "not a session.jsonl"), excerpt("agentv", PLAIN, 26));
    expect(kinWindow(own, "claude-opus-4-6", END)).toBeUndefined();
  });

  test("only the twelve sessions begun last are asked: an older one that tells is not read", () => {
    const plain = join(dir, `${PLAIN}.jsonl`);
    writeFileSync(plain, excerpt("agentv", PLAIN, 26)); // begun 2026-03-25, last written then
    utimesSync(plain, new Date("2026-03-25T01:00:00Z"), new Date("2026-03-25T01:00:00Z"));
    for (let i = 0; i < 12; i++) {
      const id = `0f1e2d3c-4b5a-4968-8776-6554433221${String(i).padStart(2, "0")}`;
      writeFileSync(
        join(dir, `${id}.jsonl`),
        session("claude-opus-4-6", `2026-03-26T0${i % 9}:00:00.000Z`, "2026-03-26T09:00:00.000Z").replaceAll(SID, id),
      );
    }
    expect(kinWindow(transcript, "claude-opus-4-6", END)).toBeUndefined();
    // With one of the twelve gone, the older one is among the newest twelve again.
    rmSync(join(dir, "0f1e2d3c-4b5a-4968-8776-655443322100.jsonl"));
    expect(kinWindow(transcript, "claude-opus-4-6", END)?.oneM).toBe(false);
  });

  test("the newest session that tells decides: a later /model to the 1M variant", () => {
    writeFileSync(join(dir, `${PLAIN}.jsonl`), excerpt("agentv", PLAIN, 26));
    // starcar's /model (line 11) and its first request on claude-opus-4-8; begun 2026-07, after the plain one.
    writeFileSync(join(dir, `${ONE_M}.jsonl`), excerpt("starcar", ONE_M, 40));
    const late = Date.parse("2026-12-01T00:00:00.000Z");
    expect(kinWindow(transcript, "claude-opus-4-8", late)).toEqual({
      model: "claude-opus-4-8",
      oneM: true,
      by: "project_sessions",
    });
    expect(kinWindow(transcript, "claude-opus-4-6", late)?.oneM).toBe(false);
  });
});

describe("ctx finalize, typed, on a session the client's default would judge at 1M", () => {
  const finalize = async () => {
    const r = await runCtx(["finalize", "--transcript", transcript, "--project", sb.project], {
      env: { ...sb.env, CTX_DEBUG: "1" },
      cwd: sb.project,
    });
    expect(r.code).toBe(0);
    const md = readFileSync(r.stdout.trim().split("\n").pop()!, "utf8");
    return { md, source: /finalize: window \d+ \((\w+)\)/.exec(r.stderr)?.[1] };
  };

  test("alone: the default decides (1M); beside a session that signed the plain model: 200k", async () => {
    const alone = await finalize();
    expect(alone.source).toBe("client_default");
    expect(alone.md).toContain("(40000 / 1000000 tokens");
    writeFileSync(join(dir, `${PLAIN}.jsonl`), excerpt("agentv", PLAIN, 26));
    const beside = await finalize();
    expect(beside.source).toBe("model_name");
    expect(beside.md).toContain("(40000 / 200000 tokens");
  });
});
