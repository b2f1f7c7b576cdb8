/**
 * The checkpoint at `limits.checkpoint_at` of the plan's 5-hour usage window: told to the agent once per
 * window (the marker `state/monitor/<sid>.checkpoint` holds the window's reset), by the monitor.
 */
import type { Config } from "../../core/config-schema.ts";
import { debug, type Deps } from "../../core/deps.ts";
import { decodeHook } from "../../core/agents/index.ts";
import { stateRoot } from "../../core/paths.ts";
import { loadConfig } from "../config.ts";
import { layout, STATE_DIRS } from "../../core/layout.ts";
import { checkpointText, nearReset } from "../../core/rate-limits.ts";
import { ensureDirUnder } from "../fs/dirs.ts";
import { readFileSafe } from "../fs/read.ts";
import { writeFileAtomic } from "../fs/write.ts";
import { readRateLimits } from "./rate-limits.ts";

/** The checkpoint text when it is due for this session and this 5-hour window (and marks it told), else undefined. */
export function checkpointDue(deps: Deps, root: string, sessionId: string, cfg: Config): string | undefined {
  const recorded = readRateLimits(deps.env);
  const w = nearReset(recorded?.limits, cfg["limits.checkpoint_at"], deps.now());
  const marker = layout(root).monitorFile(sessionId, ".checkpoint");
  if (!w || !marker) return undefined;
  const window = String(w.resetsMs ?? "unknown");
  if (readFileSafe(marker, { maxBytes: 256 })?.trim() === window) return undefined; // told for this window
  ensureDirUnder(root, STATE_DIRS.monitor);
  writeFileAtomic(marker, `${window}\n`, 0o600);
  return checkpointText(w);
}

/** A hook's output to print. */
type HookOutput = { hookSpecificOutput: { hookEventName: string; additionalContext: string } };

/**
 * The monitor's output with the checkpoint added when it is due (after the level's text, or alone); any
 * failure leaves the output as it was (a hook never fails for it).
 */
export function withCheckpoint(
  deps: Deps,
  project: string,
  input: Record<string, unknown>,
  output: HookOutput | undefined,
): HookOutput | undefined {
  try {
    const text = checkpointDue(
      deps,
      stateRoot(deps.env, project),
      input.session_id as string,
      loadConfig(deps, project),
    );
    const event = decodeHook(input)?.rawEvent;
    if (!text || !event) return output;
    if (!output) return { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
    output.hookSpecificOutput.additionalContext += `\n\n${text}`;
    return output;
  } catch (err) {
    debug(deps, `monitor: checkpoint not given: ${(err as Error).message}`);
    return output;
  }
}
