/**
 * The plan's usage windows, per user (they are the account's, not a session's): the status line records
 * the newest payload's `rate_limits`; the monitor, `ctx status`, `ctx respawn` and `ctx run` read them.
 */
import type { Env } from "../../core/deps.ts";
import { userLayout } from "../../core/layout.ts";
import { parseObject } from "../../core/json.ts";
import { parseRateLimits, type RateLimits, type UsageWindow } from "../../core/rate-limits.ts";
import { ensureDirUnder } from "../fs/dirs.ts";
import { currentUid, readFileSafe } from "../fs/read.ts";
import { writeFileAtomic } from "../fs/write.ts";

/** Writes the windows (atomically, 0600), unless the file already says the same. */
export function recordRateLimits(env: Env, r: RateLimits, nowMs: number): void {
  const { rateLimits: path, dir, missing } = userLayout(env);
  if (missing) return;
  const w = (u: UsageWindow | undefined) => u && { used_percentage: u.usedPct, resets_at: u.resetsMs };
  const body = {
    five_hour: w(r.fiveHour),
    seven_day: w(r.sevenDay),
    spend_limit: r.spend && { ...w(r.spend), used_usd: r.spend.usedUsd, limit_usd: r.spend.limitUsd },
  };
  const kept = readFileSafe(path, { maxBytes: 64 * 1024, ownerUid: currentUid() });
  const old = kept === undefined ? undefined : parseObject(kept);
  if (old && JSON.stringify(old.rate_limits) === JSON.stringify(body)) return;
  ensureDirUnder(dir);
  writeFileAtomic(path, `${JSON.stringify({ version: 1, at: nowMs, rate_limits: body })}\n`, 0o600);
}

/** The windows the newest status line recorded, with when (ms), or undefined. */
export function readRateLimits(env: Env): { at: number; limits: RateLimits } | undefined {
  const { rateLimits: path, missing } = userLayout(env);
  if (missing) return undefined;
  const text = readFileSafe(path, { maxBytes: 64 * 1024, ownerUid: currentUid() });
  const doc = text === undefined ? undefined : parseObject(text);
  if (!doc || doc.version !== 1 || typeof doc.at !== "number") return undefined;
  const limits = parseRateLimits(doc.rate_limits);
  return limits ? { at: doc.at, limits } : undefined;
}
