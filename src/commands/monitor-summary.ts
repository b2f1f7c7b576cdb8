/**
 * `ctx monitor` called by ctx's OpenCode plugin as OpenCode starts a compaction (`ModSummary`): with
 * `opencode.replace_compaction_summary` on, ctx writes the session's handoff summary (awaited) and
 * answers it framed as the resume prompt's data (`ctx_summary`), which the plugin puts in place of
 * the text of OpenCode's own compaction summary (core/agents/opencode-cycle.ts, docs/opencode.md).
 */
import { decodeHook } from "../core/agents/index.ts";
import { debug, type Deps } from "../core/deps.ts";
import { buildResumePrompt } from "../core/resume/prompt.ts";
import { isValidSessionId } from "../core/session-id.ts";
import { loadConfig } from "../io/config.ts";
import { readFileSafe } from "../io/fs/read.ts";
import { hookProject } from "../io/project.ts";
import { finalize } from "./finalize.ts";

/** ctx's summary for the compaction under way, or undefined when OpenCode's own summary stays. */
export function modSummary(input: Record<string, unknown>, deps: Deps): { ctx_summary: string } | undefined {
  const hook = decodeHook(input);
  const sid = hook?.sessionId;
  if (!hook || !isValidSessionId(sid)) return undefined;
  const project = hookProject(deps.env, hook.cwd, deps.cwd);
  if (!loadConfig(deps, project)["opencode.replace_compaction_summary"]) return undefined;
  try {
    const done = finalize({ project, sessionId: sid, reason: "compaction" }, deps);
    const text = readFileSafe(done.summaryPath);
    return text ? { ctx_summary: buildResumePrompt(text, done.summaryPath, "compact") } : undefined;
  } catch (err) {
    debug(deps, `monitor: no summary for the compaction: ${(err as Error).message}`);
    return undefined;
  }
}
