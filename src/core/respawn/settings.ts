import type { Config } from "../config-schema.ts";
import type { RespawnSettings } from "./types.ts";

/** After a compaction, the wait for a fresh reading beyond the quiet period (progressWaitMs). */
export const PROGRESS_WAIT_EXTRA_MS = 5000;

/** Resolves the machine's settings from the `respawn.*` config keys. A prompt set to `off` or `none` is skipped. */
export function settingsFromConfig(cfg: Config): RespawnSettings {
  const s = (v: number): number => Math.round(v * 1000);
  return {
    mode: (cfg["respawn.strategy"] || cfg["respawn.mode"]) === "keep-working" ? "keep-working" : "context",
    compactAt: cfg["respawn.compact_at"],
    restartAt: cfg["respawn.restart_at"],
    maxCyclesPerHour: cfg["respawn.max_cycles_per_hour"],
    cooldownMs: s(cfg["respawn.cooldown_s"]),
    compactPrompt: prompt(cfg["respawn.compact_prompt"]) || "/compact",
    updatePrompt: prompt(cfg["respawn.update_prompt"]),
    kickstartPrompt: prompt(cfg["respawn.kickstart_prompt"]),
    compactContinuePrompt: prompt(cfg["respawn.compact_continue_prompt"]),
    sendClear: cfg["respawn.send_clear"],
    sendInit: cfg["respawn.send_init"],
    autoAcceptPlans: cfg["respawn.auto_accept_plans"],
    aiCheck: cfg["respawn.ai_check"],
    aiCheckTimeoutMs: s(cfg["respawn.ai_check_timeout_s"]),
    aiCheckCooldownMs: s(cfg["respawn.ai_check_cooldown_s"]),
    quietMs: cfg["respawn.quiet_ms"],
    silenceMs: s(cfg["respawn.silence_s"]),
    stepTimeoutMs: s(cfg["respawn.step_timeout_s"]),
    stuckTimeoutMs: s(cfg["respawn.stuck_timeout_s"]),
    progressWaitMs: cfg["respawn.quiet_ms"] + PROGRESS_WAIT_EXTRA_MS,
    limitMarginMs: s(cfg["respawn.limit_margin_s"]),
    checkpointAt: cfg["limits.checkpoint_at"],
    limitContinuePrompt: prompt(cfg["respawn.limit_continue_prompt"]),
  };
}

// --- internal ---

function prompt(text: string): string {
  const t = text.trim();
  return /^(off|none|false)$/i.test(t) ? "" : t;
}
