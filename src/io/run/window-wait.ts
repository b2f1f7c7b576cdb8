/** Before a leg of `ctx run`: the wait for the 5-hour window's reset (docs/run.md). */
import type { Config } from "../../core/config-schema.ts";
import type { Env } from "../../core/deps.ts";
import { nearReset, waitText } from "../../core/rate-limits.ts";
import { readRateLimits } from "../session/rate-limits.ts";
import { waitOut } from "./leg.ts";

/**
 * At `limits.checkpoint_at` of the 5-hour window no leg starts that could not finish before its reset:
 * says so and waits for the reset plus `respawn.limit_margin_s`. False when the wait was interrupted.
 */
export async function waitForWindow(
  env: Env,
  now: () => number,
  cfg: Config,
  say: (l: string) => void,
): Promise<boolean> {
  const near = nearReset(readRateLimits(env)?.limits, cfg["limits.checkpoint_at"], now());
  if (!near?.resetsMs) return true;
  say(`ctx run: ${waitText("leg", near)}`);
  return waitOut(near.resetsMs - now() + cfg["respawn.limit_margin_s"] * 1000);
}
