/** Transcript lines shaped as Claude Code writes them, and the facts they give: shared by the summary tests. */
import { mergeChain } from "../../../src/core/summary/chain.ts";
import { addEntry } from "../../../src/core/summary/collect.ts";
import { emptyFacts, type Facts } from "../../../src/core/summary/facts.ts";
import { streamEntries } from "../../../src/io/transcript/stream.ts";
import { join } from "node:path";

let n = 0;
/** A tool call and its result, as Claude Code writes them. */
export function call(name: string, input: Record<string, unknown>, out = "ok", isError = false) {
  const id = `toolu_${++n}`;
  return [
    { type: "assistant", message: { content: [{ type: "tool_use", id, name, input }] } },
    {
      type: "user",
      message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: out, is_error: isError }] },
    },
  ];
}

/** The user's typed line (with its time, when given). */
export const user = (text: string, timestamp?: string) => ({
  type: "user",
  ...(timestamp ? { timestamp } : {}),
  message: { role: "user", content: text },
});

/** The agent's text reply. */
export const agent = (text: string) => ({ type: "assistant", message: { content: [{ type: "text", text }] } });

/** The facts of `entries` (lines, or a call's pair of lines), numbered from 1. */
export function factsOf(entries: Array<Record<string, unknown> | Array<Record<string, unknown>>>): Facts {
  const f = emptyFacts();
  for (const [i, e] of entries.flat().entries()) addEntry(f, e, i + 1);
  return f;
}

/** One session's part of a chain, from its facts (task T, session s). */
export function partOf(f: Facts) {
  return {
    taskId: "T",
    sessionId: "s",
    listId: "s",
    links: ["s"],
    facts: f,
    tasks: [],
    project: "/p",
    writtenAt: "2026-01-01T00:00:00.000Z",
  };
}

/** The twin of a one-session chain with `f`'s facts. */
export function twinOf(f: Facts) {
  return mergeChain(undefined, partOf(f));
}

/** A transcript of bench/corpus: its folder and file. */
export const corpusPath = (folder: string, file: string) =>
  join(import.meta.dir, "..", "..", "..", "bench", "corpus", folder, file);

/** The facts of a bench/corpus transcript, every line read. */
export function corpusFacts(folder: string, file: string): Facts {
  const f = emptyFacts();
  streamEntries(corpusPath(folder, file), (e) => addEntry(f, e));
  return f;
}
