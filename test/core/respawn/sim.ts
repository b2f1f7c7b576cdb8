/** A fake-time harness for the respawn machine: feed events, advance the clock, collect actions. */
import { initialState, transition } from "../../../src/core/respawn/machine.ts";
import type { RespawnAction, RespawnEvent, RespawnSettings, RespawnState } from "../../../src/core/respawn/types.ts";
import type { ScreenState } from "../../../src/core/screen.ts";

/** Screens by name. */
export const SCREENS = {
  busy: { busy: true, finished: false, prompt: true },
  done: { busy: false, finished: true, completion: "✻ Baked for 0s", prompt: true },
  prompt: { busy: false, finished: false, prompt: true },
  typed: { busy: false, finished: false, prompt: false, draft: true },
  permission: { busy: false, finished: false, prompt: false, blocker: "permission" },
  question: { busy: false, finished: false, prompt: false, blocker: "question" },
  plan: { busy: false, finished: false, prompt: false, blocker: "plan" },
  limitMenu: { busy: false, finished: false, prompt: false, blocker: "limit" },
} satisfies Record<string, ScreenState>;

/** Test settings: short timers so scenarios stay readable. */
export function settings(over: Partial<RespawnSettings> = {}): RespawnSettings {
  return {
    mode: "context",
    compactAt: 85,
    restartAt: 90,
    maxCyclesPerHour: 6,
    cooldownMs: 0,
    compactPrompt: "/compact keep state",
    updatePrompt: "update notes",
    kickstartPrompt: "continue",
    compactContinuePrompt: "",
    sendClear: true,
    sendInit: false,
    autoAcceptPlans: false,
    aiCheck: false,
    aiCheckTimeoutMs: 30_000,
    aiCheckCooldownMs: 60_000,
    quietMs: 1000,
    silenceMs: 10_000,
    stepTimeoutMs: 60_000,
    stuckTimeoutMs: 300_000,
    progressWaitMs: 6000,
    limitMarginMs: 30_000,
    limitContinuePrompt: "limit over: go on",
    ...over,
  };
}

/** Drives the machine with fake time. */
export class Sim {
  now = 1_000_000;
  state: RespawnState;
  actions: RespawnAction[] = [];
  private text: keyof typeof SCREENS | "" = "";

  constructor(over: Partial<RespawnSettings> = {}) {
    this.state = initialState(settings(over), this.now);
  }

  /** Feeds one event at the current time; returns the actions it produced. */
  feed(ev: RespawnEvent): RespawnAction[] {
    const t = transition(this.state, ev, this.now);
    this.state = t.state;
    this.actions.push(...t.actions);
    return t.actions;
  }

  /** Shows a screen (changed when it differs from the last one, or when `changed` says so). */
  screen(name: keyof typeof SCREENS, changed?: boolean): RespawnAction[] {
    const c = changed ?? name !== this.text;
    this.text = name;
    return this.feed({ type: "screen", screen: SCREENS[name], changed: c });
  }

  /** Moves time on by `ms`, polling the same screen every 250 ms (as the driver does). */
  wait(ms: number): RespawnAction[] {
    const out: RespawnAction[] = [];
    for (let left = ms; left > 0; left -= 250) {
      this.now += Math.min(250, left);
      if (this.text) out.push(...this.screen(this.text, false));
      out.push(...this.feed({ type: "tick" }));
    }
    return out;
  }

  usage(pct: number): RespawnAction[] {
    return this.feed({ type: "usage", pct, at: this.now });
  }

  stopHook(): RespawnAction[] {
    return this.feed({ type: "stop_hook", at: this.now });
  }

  /** A turn: busy for a moment, then finished, a Stop hook and `pct` usage. */
  turn(pct: number): void {
    this.screen("busy");
    this.wait(500);
    this.usage(pct);
    this.screen("done");
    this.stopHook();
  }

  /** The text actions sent so far (send_text texts and send_keys keys and finalize). */
  sent(from: RespawnAction[] = this.actions): string[] {
    return from.flatMap((a) =>
      a.type === "send_text"
        ? [a.text]
        : a.type === "send_keys"
          ? [`keys:${a.keys.join("+")}`]
          : a.type === "finalize"
            ? ["finalize"]
            : a.type === "ai_check"
              ? ["ai_check"]
              : [],
    );
  }

  /** Recorded event names so far. */
  events(): string[] {
    return this.actions.flatMap((a) => (a.type === "record" ? [a.event] : []));
  }
}
