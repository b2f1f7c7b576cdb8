/**
 * Reads a Claude Code pane (tmux capture-pane text) and says what the client is
 * doing. Patterns observed on the clients (docs/clients.md, "The interactive screen"):
 * the spinner line `✢ Galloping…` and the footer `esc to interrupt` while busy,
 * the completion line `✻ <Verb> for <duration>` with a verb that rotates from
 * turn to turn, and the input box `❯ ` between two rules.
 */
import { stripAnsi } from "./terminal.ts";

/** A dialog that waits for the user: the supervisor must not type into it. */
export type Blocker = "permission" | "question" | "plan" | "limit";

/** What one screen shows. */
export interface ScreenState {
  /** The client is working: the `esc to interrupt` footer or a spinner line is visible. */
  busy: boolean;
  /** The last turn ended: a completion line `✻ <Verb> for <duration>` is visible. */
  finished: boolean;
  /** The completion line itself, when `finished`. */
  completion?: string;
  /** The input box is visible and empty (nothing typed, no dialog over it). */
  prompt: boolean;
  /** A permission prompt, question, plan-approval menu or the usage-limit menu is open. */
  blocker?: Blocker;
}

/** The spinner glyphs the client draws (it rotates through them), plus `*` on plain terminals. */
const SPINNER_GLYPHS = "·✢✳✶✻✽*";

/** Classifies a screen (ANSI is stripped first). */
export function classifyScreen(raw: string): ScreenState {
  const text = stripAnsi(raw).replace(/\u00a0/g, " ");
  const lines = text.split("\n").map((l) => l.trimEnd());
  const blocker = findBlocker(lines);
  const completion = findCompletion(lines);
  const busy = /esc to interrupt/i.test(text) || lines.some((l) => SPINNER_LINE.test(l));
  const prompt = !blocker && hasEmptyInputBox(lines);
  return {
    busy,
    finished: completion !== undefined,
    ...(completion ? { completion } : {}),
    prompt,
    ...(blocker ? { blocker } : {}),
  };
}

/** True when the line is a completion line `✻ <AnyVerb> for 1m 2s` (any verb, any spinner glyph). */
export function isCompletionLine(line: string): boolean {
  return COMPLETION_LINE.test(line.trim());
}

// --- internal ---

const GLYPH = `[${SPINNER_GLYPHS}]`;
/** `✢ Galloping…` or `✶ Reticulating… (12s · ↓ 200 tokens)`: a verb ending in an ellipsis. */
const SPINNER_LINE = new RegExp(`^\\s*${GLYPH}\\s+\\p{L}[\\p{L}'’ -]*(?:…|\\.\\.\\.)`, "u");
const DURATION = String.raw`(?:\d+h\s*)?(?:\d+m\s*)?\d+(?:\.\d+)?s`;
/** `✻ Baked for 0s`, `✻ Cogitated for 1m 2s`: the verb is any word, never a fixed list. */
const COMPLETION_LINE = new RegExp(
  `^${GLYPH}\\s+\\p{L}[\\p{L}'’-]*(?:\\s\\p{L}[\\p{L}'’-]*)?\\s+for\\s+${DURATION}(?:\\s|$|\\W)`,
  "u",
);
/** The selected option of a menu: `❯ 1. Yes`. */
const MENU_OPTION = /^\s*[❯>›]\s*\d+\.\s+\S/;
/** The client's menu at the usage limit: `1. Stop and wait for limit to reset  2. Upgrade your plan`. */
const LIMIT_MENU = /stop and wait for (?:the )?limit to reset|upgrade your plan/i;
const PLAN = /would you like to proceed|ready to code|keep planning|approve (?:this|the) plan|exit plan mode/i;
const PERMISSION =
  /do you want to (?:allow|proceed|make this edit|create|overwrite|run|fetch|use)|permission|don't ask again/i;

function findCompletion(lines: string[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (COMPLETION_LINE.test(line)) return line;
  }
  return undefined;
}

/** A numbered menu with a selected option means a dialog owns the keyboard; its words say which. */
function findBlocker(lines: string[]): Blocker | undefined {
  const at = lines.findIndex((l) => MENU_OPTION.test(l));
  if (at < 0) return undefined;
  const around = lines.slice(Math.max(0, at - 12), at + 8).join("\n");
  if (LIMIT_MENU.test(around)) return "limit";
  if (PLAN.test(around)) return "plan";
  if (PERMISSION.test(around)) return "permission";
  return "question";
}

/** The last `❯` line sits between two rules and holds nothing typed. */
function hasEmptyInputBox(lines: string[]): boolean {
  for (let i = lines.length - 1; i > 0; i--) {
    const line = lines[i]!;
    if (!/^\s*❯/.test(line)) continue;
    const ruleAbove = /^\s*─{8,}/.test(lines[i - 1] ?? "");
    return ruleAbove && line.replace(/^\s*❯/, "").trim() === "";
  }
  return false;
}
