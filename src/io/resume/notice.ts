/**
 * The user's one line when a fresh session starts from a summary, and the `↻ N` the status line shows
 * until the session's first reply (the marker `state/monitor/<sid>.continued` holds N).
 */
import { basename } from "node:path";
import { layout, STATE_DIRS } from "../../core/layout.ts";
import { taskOfSummary } from "../../core/resume/hook-decision.ts";
import { continuedNotice, continuedNumber } from "../../core/resume/notice.ts";
import { ensureDirUnder } from "../fs/dirs.ts";
import { writeFileAtomic } from "../fs/write.ts";
import { sessionsIn } from "./summaries.ts";
import type { Env } from "../../core/deps.ts";

/** The line naming the summary and its chain; marks the session continued for its status line. */
export function continuedLine(
  env: Env,
  root: string,
  sessionId: string,
  summaryPath: string,
  supervised: boolean,
): string {
  const name = basename(summaryPath);
  const n = continuedNumber(sessionsIn(env, root, summaryPath));
  const marker = layout(root).monitorFile(sessionId, ".continued");
  try {
    ensureDirUnder(root, STATE_DIRS.monitor);
    if (marker) writeFileAtomic(marker, `${n}\n`, 0o600);
  } catch {
    // the line on screen still says it
  }
  return continuedNotice(name, taskOfSummary(name) ?? "?", n, supervised);
}
