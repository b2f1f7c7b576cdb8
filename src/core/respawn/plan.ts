/** Which cycle to run at a confirmed idle, and its steps. */
import type { CycleKind, RespawnSettings, RespawnState, Step } from "./types.ts";

/** The cycle chosen at a confirmed idle and the used % that triggered it. */
export interface Choice {
  /** The cycle to run. */
  kind: CycleKind;
  /** The threshold it was triggered at (null for keep-working). */
  trigger: number | null;
}

/**
 * Decides what an idle session needs. Keep-working: always a cycle. Context:
 * compact at `compactAt`; the full restart at `restartAt` when compaction is
 * off or the last compaction left usage at its trigger; nothing below the
 * thresholds, without a reading, or while the reading predates the last cycle.
 */
export function chooseCycle(state: RespawnState): Choice | null {
  const s = state.settings;
  if (s.mode === "keep-working") return { kind: "keep-working", trigger: null };
  const u = state.usage;
  // A reading from before the last cycle is stale: wait for the hooks to report.
  if (!u || state.awaitingProgress) return null;
  const compactFailed = state.lastCycle?.kind === "compact" && state.noProgress > 0;
  if (s.restartAt !== false && u.pct >= s.restartAt && (s.compactAt === false || compactFailed)) {
    return { kind: "restart", trigger: s.restartAt };
  }
  if (s.compactAt !== false && u.pct >= s.compactAt && !compactFailed) return { kind: "compact", trigger: s.compactAt };
  return null;
}

/** The steps of a cycle, skipping the disabled and empty ones. */
export function buildSteps(kind: CycleKind, s: RespawnSettings): Step[] {
  const init: Step[] = s.sendInit ? [{ kind: "init", text: "/init" }] : [];
  const kick: Step[] = s.kickstartPrompt ? [{ kind: "kickstart", text: s.kickstartPrompt }] : [];
  switch (kind) {
    case "compact":
      // after the compaction the agent is idle: the continue prompt sends it on to its next step
      return [
        { kind: "compact", text: s.compactPrompt },
        ...(s.compactContinuePrompt ? [{ kind: "kickstart", text: s.compactContinuePrompt } as Step] : []),
      ];
    case "restart":
      return [{ kind: "finalize" }, { kind: "clear", text: "/clear" }, ...init, ...kick];
    case "keep-working":
      return [
        ...(s.updatePrompt ? [{ kind: "update", text: s.updatePrompt } as Step] : []),
        ...(s.sendClear ? [{ kind: "clear", text: "/clear" } as Step] : []),
        ...init,
        ...kick,
      ];
  }
}
