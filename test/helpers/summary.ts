/** Rendering the handoff summary of one session in the summary tests: its chain twin, then the Markdown. */
import type { Facts } from "../../src/core/summary/facts.ts";
import { mergeChain } from "../../src/core/summary/chain.ts";
import { renderSummary, type SummaryInput } from "../../src/core/summary/render.ts";
import { sessionTasks } from "../../src/core/summary/tasks.ts";

/** Which chain the session is in (the twin's task id, session, links and project). */
export interface ChainOf {
  taskId: string;
  sessionId: string;
  links: string[];
  project: string;
}

/** The summary of a session whose chain starts with it (no previous twin), written at a fixed time. */
export function renderSession(
  f: Facts,
  rest: Omit<SummaryInput, "facts" | "twin">,
  chain: ChainOf = { taskId: "T", sessionId: "s", links: ["s"], project: "/tmp/elsewhere" },
): string {
  const twin = mergeChain(undefined, {
    ...chain,
    listId: chain.sessionId,
    facts: f,
    tasks: sessionTasks(f, []),
    writtenAt: "2026-01-01T00:00:00.000Z",
  });
  return renderSummary({ facts: f, twin, ...rest });
}
