/** The `respawn.*` keys of the configuration schema (spread into SCHEMA, config-schema.ts). Pure. */
import { asUser, bool, num, pct, str } from "./config-spec.ts";

/** The supervisor's keys. */
export const RESPAWN_SCHEMA = {
  "respawn.mode": asUser(
    str(
      "context",
      "Respawn strategy: context (compact / finalize-clear-kickstart near the limit) or keep-working (cycle on every idle)",
      ["context", "keep-working"],
    ),
  ),
  "respawn.strategy": asUser(str("", "Same as respawn.mode; when set, it wins", ["context", "keep-working"])),
  "respawn.in_client": asUser(
    bool(
      false,
      "Respawn inside the client: Claude Code 2.1.286+ (ctx's mod) or OpenCode's TUI (ctx's plugin). At an idle turn's end at compact_at or restart_at, it runs the cycle itself (finalize, a fresh session or a compaction, the continue prompt as you); no tmux",
    ),
  ),
  "respawn.compact_at": pct(85, "Respawn: send /compact when idle at or above this used % (off = never compact)"),
  "respawn.restart_at": pct(
    90,
    "Respawn: full cycle (finalize, /clear, kickstart) when still at or above this used % after compaction, or when compaction is off",
  ),
  "respawn.max_cycles_per_hour": num(6, "Respawn: at most this many cycles in any hour"),
  "respawn.cooldown_s": num(60, "Respawn: seconds to wait after a cycle before the next one"),
  "respawn.compact_prompt": asUser(
    str(
      "/compact Keep the task state: the goal, what is done, the files changed, the remaining steps and the next step.",
      "Respawn: the compaction command sent to the client",
    ),
  ),
  "respawn.update_prompt": asUser(
    str(
      "Update your notes and task list with the current state of the work, so a fresh session can continue it.",
      "Respawn (keep-working): prompt sent first on every idle (empty = skip)",
    ),
  ),
  "respawn.kickstart_prompt": asUser(
    str(
      "Continue the work from the handoff summary ctx gave you when this session started (its file is in .ctx/sessions/): pick up the remaining tasks, starting with the next step.",
      "Respawn: prompt sent after /clear to continue (empty = skip)",
    ),
  ),
  "respawn.compact_continue_prompt": asUser(
    str(
      "Next: continue the work from where the compaction left it, starting with the next step of your task list.",
      "Respawn: prompt sent once /compact is done, so the agent goes on with its next step (empty = leave it idle)",
    ),
  ),
  "respawn.send_clear": asUser(bool(true, "Respawn (keep-working): send /clear in the cycle")),
  "respawn.send_init": asUser(bool(false, "Respawn: send /init after /clear")),
  "respawn.auto_accept_plans": asUser(
    bool(false, "Respawn: accept a plan-approval menu by pressing Enter (never permission prompts or questions)"),
  ),
  "respawn.ai_check": asUser(
    bool(false, "Respawn: confirm an ambiguous idle by asking `claude -p` for an IDLE/WORKING verdict"),
  ),
  "respawn.ai_check_timeout_s": num(60, "Respawn: give up on one AI idle check after this long"),
  "respawn.ai_check_cooldown_s": num(180, "Respawn: wait this long after a WORKING verdict before asking again"),
  "respawn.poll_ms": num(1000, "Respawn: how often the pane is captured"),
  "respawn.quiet_ms": num(2000, "Respawn: quiet period (no new output) that confirms an idle signal"),
  "respawn.silence_s": num(30, "Respawn: output silence after which a pane showing the prompt counts as idle"),
  "respawn.step_timeout_s": num(300, "Respawn: longest wait for one step (a sent command) to be confirmed"),
  "respawn.stuck_timeout_s": num(
    900,
    "Respawn: a cycle lasting longer than this is abandoned (recovery: back to watching)",
  ),
  "respawn.limit_margin_s": num(
    60,
    "Respawn: at the usage limit, nothing is typed until this long after the reset time the client names",
  ),
  "respawn.limit_continue_prompt": asUser(
    str(
      "The usage limit has reset. Continue the work where it stopped.",
      "Respawn: prompt sent once the usage limit has reset and the input box is idle (empty = send nothing)",
    ),
  ),
  "respawn.enter_delay_ms": num(150, "Respawn: pause between typing text and pressing Enter"),
} as const;
