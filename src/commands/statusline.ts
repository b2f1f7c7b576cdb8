import type { Deps } from "../core/deps.ts";
import { debug } from "../core/deps.ts";
import { parseHookInput } from "../core/hook-input.ts";
import { bridgeOf, renderStatus, statusInput } from "../core/statusline.ts";
import { isValidSessionId } from "../core/session-id.ts";
import { count } from "../core/usage.ts";
import { readBridge, writeBridge } from "../io/session/bridge.ts";
import { envConfig, loadConfig } from "../io/config.ts";
import { chainedCommand, chainedRows } from "../core/statusline-chain.ts";
import type { Config } from "../core/config-schema.ts";
import { gitBranch } from "../io/git/head.ts";
import { projectFrom } from "../io/project.ts";
import { rememberWindow } from "../io/session/window-source.ts";
import { userLayout } from "../core/layout.ts";
import { parseIndexEntry } from "../core/status/entry.ts";
import { limitText } from "../core/limit.ts";
import { readFileSafe, readJsonFile } from "../io/fs/read.ts";
import { layout } from "../core/layout.ts";
import { stateRoot } from "../core/paths.ts";
import { recordRateLimits } from "../io/session/rate-limits.ts";

/** The line printed when the payload is unusable: short and sane, never empty. */
export const FALLBACK_LINE = "ctx │ waiting for usage";

/**
 * `ctx statusline`: reads Claude Code's statusLine JSON, prints one line and
 * writes the bridge file. Never fails: bad input prints a fallback line.
 */
export async function run(argv: string[], deps: Deps): Promise<void> {
  const timeoutMs = envConfig(deps.env)["statusline.stdin_timeout_ms"];
  const input = await deps.readStdin({ timeoutMs, maxBytes: 4 * 1024 * 1024 });
  const payload = parseHookInput(input.text);
  const cwd = typeof payload.cwd === "string" ? payload.cwd : deps.cwd;
  // The client may run in a subfolder: the project (its name, branch and config) is the one found from there.
  const start = projectOf(payload) ?? cwd;
  const project = projectFrom(start);
  const cfg = loadConfig(deps, project);
  const chain = chainedCommand(argv, cfg);
  const status = statusInput(payload, cfg);
  if (status.projectDir?.startsWith("/"))
    status.projectDir = status.projectDir === start ? project : projectFrom(status.projectDir);
  if (!status.sessionId && !status.modelName && !status.context) {
    deps.stdout(`${await withChained(FALLBACK_LINE, chain, input.text, cwd, cfg, deps)}\n`);
    return;
  }
  const bridge = bridgeOf(status, deps.now());
  const label = isValidSessionId(status.sessionId) ? await labelOf(deps, status.sessionId, payload) : undefined;
  if (bridge && label) bridge.label = label;
  if (bridge) {
    try {
      writeBridge(deps.env, bridge);
    } catch (err) {
      debug(deps, `statusline: bridge not written: ${(err as Error).message}`);
    }
  }
  // Only a payload of a real session (a safe session id) is remembered: a hostile one writes nothing.
  if (isValidSessionId(status.sessionId)) remember(deps, payload, status.modelId);
  if (isValidSessionId(status.sessionId) && status.rateLimits) {
    try {
      recordRateLimits(deps.env, status.rateLimits, deps.now());
    } catch (err) {
      debug(deps, `statusline: rate limits not recorded: ${(err as Error).message}`);
    }
  }
  const color = !deps.env.NO_COLOR;
  const branch = cfg["statusline.git_branch"] && status.projectDir ? safeBranch(status.projectDir) : undefined;
  const limit = isValidSessionId(status.sessionId) ? limitOf(deps, status.sessionId) : undefined;
  // a session started from a summary shows `↻ N` until its first reply (the resume hook's marker)
  const continued = !status.context && isValidSessionId(status.sessionId) ? continuedOf(deps, status) : undefined;
  const line = renderStatus(status, cfg, { color, branch, label, continued, ...(limit ? { limit } : {}) });
  deps.stdout(`${await withChained(line, chain, input.text, cwd, cfg, deps)}\n`);
}

/**
 * ctx's line with the user's chained status line command beside it: the command gets the same
 * payload on stdin; when it fails, times out or prints nothing, ctx's line is shown alone.
 */
async function withChained(
  line: string,
  chain: string | undefined,
  payload: string,
  cwd: string,
  cfg: Config,
  deps: Deps,
): Promise<string> {
  if (!chain) return line;
  try {
    const { runChild } = await import("../io/process/child.ts");
    const r = await runChild(["/bin/sh", "-c", chain], {
      cwd: cwd.startsWith("/") ? cwd : deps.cwd,
      env: deps.env,
      timeoutMs: cfg["statusline.chain_timeout_ms"],
      stdin: payload,
      group: true,
    });
    if (r.timedOut || r.code !== 0)
      debug(deps, `statusline: chained command ${r.timedOut ? "timed out" : `exited ${r.code}`}`);
    if (r.timedOut) return line;
    return chainedRows(line, r.stdout, cfg["statusline.chain_position"], !deps.env.NO_COLOR).join("\n");
  } catch (err) {
    debug(deps, `statusline: chained command failed: ${(err as Error).message}`);
    return line;
  }
}

// --- internal ---

/** The session's label: kept in its bridge file after the first run, so tmux is asked once per session. */
async function labelOf(deps: Deps, sessionId: string, payload: Record<string, unknown>): Promise<string> {
  const kept = readBridge(deps.env, sessionId)?.label;
  if (kept) return kept;
  const { resolveLabel } = await import("../io/session/label.ts");
  return resolveLabel(deps.env, sessionId, payload.session_name);
}

/** Remembers the window Claude Code reported for this model id (written only when it is new or changed). */
function remember(deps: Deps, payload: Record<string, unknown>, modelId: string | undefined): void {
  const cw = payload.context_window;
  const size = cw && typeof cw === "object" ? count((cw as Record<string, unknown>).context_window_size) : 0;
  if (!modelId || !size) return;
  try {
    if (rememberWindow(deps.env, modelId, size)) debug(deps, `statusline: remembered window ${size} for ${modelId}`);
  } catch (err) {
    debug(deps, `statusline: window not remembered: ${(err as Error).message}`);
  }
}

/** `limit · resets 15:03` when the session's index entry says it is at the usage limit (`ctx track` writes it). */
function limitOf(deps: Deps, sessionId: string): string | undefined {
  const path = userLayout(deps.env).indexEntry(sessionId);
  const read = path ? readJsonFile<unknown>(path, { maxBytes: 256 * 1024 }) : undefined;
  const entry = read?.status === "ok" ? parseIndexEntry(read.value, sessionId) : undefined;
  return entry?.limit ? limitText(entry.resets_ms) : undefined;
}

/** The chain's session number the resume hook marked this session with (`state/monitor/<sid>.continued`). */
function continuedOf(deps: Deps, status: { sessionId?: string; projectDir?: string }): number | undefined {
  if (!status.projectDir?.startsWith("/")) return undefined;
  const marker = layout(stateRoot(deps.env, status.projectDir)).monitorFile(status.sessionId, ".continued");
  const n = marker ? Number(readFileSafe(marker, { maxBytes: 64 })?.trim()) : Number.NaN;
  return Number.isInteger(n) && n > 1 ? n : undefined;
}

function projectOf(payload: Record<string, unknown>): string | undefined {
  const ws = payload.workspace as Record<string, unknown> | undefined;
  const dir = ws && typeof ws === "object" ? ws.project_dir : undefined;
  return typeof dir === "string" && dir.startsWith("/") ? dir : undefined;
}

function safeBranch(dir: string): string | undefined {
  try {
    return dir.startsWith("/") ? gitBranch(dir) : undefined;
  } catch {
    return undefined;
  }
}
