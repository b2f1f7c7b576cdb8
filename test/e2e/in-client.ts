/**
 * Shared by the e2e tests of the cycle inside the client (`respawn.in_client`, ctx's Claude Code
 * mod): the sandbox with ctx installed and the cycle on, scripted answers, and the in-client
 * supervisor's record.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { runCtx } from "../helpers/ctx.ts";
import { CLIENT, CLIENTS, makeSandbox, type Sandbox, type SandboxOptions } from "./claude.ts";
import type { FakeApi, Turn } from "./fake-api.ts";

/** The default `respawn.kickstart_prompt`'s start: the fresh session's first prompt. */
export const KICKSTART = "Continue the work from the handoff summary ctx gave you when this session started";
/** The in-client cycle on, restarting at 90 %, no compaction. */
export const IN_CLIENT = { CTX_RESPAWN_IN_CLIENT: "1", CTX_RESPAWN_COMPACT_AT: "off", CTX_RESPAWN_RESTART_AT: "90" };
/** Whether this run's client runs mods (2.1.197 does not). */
export const MODS = CLIENT.version !== CLIENTS.pinned.version;

/** A text answer at `used` tokens of the 200k window, after `delayMs`. */
export function answer(text: string, used: number, delayMs = 0): Turn {
  return {
    content: [{ type: "text", text }],
    usage: { input_tokens: 100, cache_read_input_tokens: used - 100 },
    delayMs,
  };
}

/** One event of the in-client supervisor's record. */
export interface RecordEvent {
  event: string;
  detail?: string;
}

/** The in-client supervisor's record (`state/respawn/client-<pid>.json`), once the mod reported an idle turn. */
export function clientRecord(
  s: Sandbox,
): { cycles: number; events: RecordEvent[]; machine: { usage: unknown } } | undefined {
  const dir = join(s.project, ".ctx", "state", "respawn");
  try {
    const f = readdirSync(dir).find((n) => /^client-\d+\.json$/.test(n));
    return f ? JSON.parse(readFileSync(join(dir, f), "utf8")) : undefined;
  } catch {
    return undefined;
  }
}

/** Polls until `ok()` holds (the test's own timeout bounds it). */
export async function until(ok: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await ok())) await Bun.sleep(200);
}

/**
 * A sandbox on `api` with `ctx install` done and the in-client cycle on (`IN_CLIENT`, plain
 * colours), `extraEnv` and `settings` on top; ready for `startClient`. `make` builds the sandbox (a test
 * rig's, so the rig removes it after the test).
 */
export async function inClientSandbox(
  api: FakeApi,
  opts: { extraEnv?: Record<string, string>; settings?: object } = {},
  make: (o: SandboxOptions) => Promise<Sandbox> = makeSandbox,
): Promise<Sandbox> {
  const sandbox = await make({
    apiUrl: api.url,
    extraEnv: { ...IN_CLIENT, NO_COLOR: "1", ...opts.extraEnv },
    ...(opts.settings ? { settings: opts.settings } : {}),
  });
  const r = await runCtx(["install"], { env: sandbox.env, cwd: sandbox.project });
  if (r.code !== 0) {
    sandbox.cleanup();
    throw new Error(`ctx install failed (${r.code}): ${r.stderr}`);
  }
  return sandbox;
}
