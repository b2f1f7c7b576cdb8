/**
 * Reads a Claude Code pane (tmux capture-pane text) and says what the client is
 * doing. Patterns observed on the clients (docs/clients.md, "The interactive screen"):
 * the spinner line `✢ Galloping…` and the footer `esc to interrupt` while busy,
 * the completion line `✻ <Verb> for <duration>` with a verb that rotates from
 * turn to turn, and the input box `❯ ` between two rules.
 */
import { limitMessage } from "./limit.ts";
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
  /** The input box holds text the user typed and has not sent (a draft): nothing may be typed over it. */
  draft?: boolean;
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
  const box = blocker ? undefined : inputBox(lines);
  const prompt = box === "";
  return {
    busy,
    finished: completion !== undefined,
    ...(completion ? { completion } : {}),
    prompt,
    ...(box ? { draft: true } : {}),
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
/** Any option of a menu, selected or not: `❯ 1. Yes`, `  2. No`. */
const ANY_OPTION = /^\s*(?:[❯>›]\s*)?\d+\.\s+\S/;
/** A horizontal rule the client draws: a whole line of `─` (above the input box, above a dialog). */
const RULE = /^\s*─{8,}\s*$/;
/** The client's menu at the usage limit: its first option. */
const LIMIT_OPTION = /^\s*(?:[❯>›]\s*)?1\.\s+Stop and wait for (?:the )?limit to reset\s*$/i;
/**
 * The question right above the plan dialog's options (2.1.197, 2.1.332: "Claude has written up a plan
 * and is ready to execute. Would you like to proceed?"; older: "Would you like to proceed?"), or the
 * plan-mode exit without a plan ("Exit plan mode?" / "Claude wants to exit plan mode").
 */
const PLAN_QUESTION =
  /^(?:(?:Claude has written up a plan and is ready to execute\.\s+)?Would you like to proceed\?|Claude wants to exit plan mode)$/;
/** The plan dialog's first option: "Yes, auto-accept edits" (older "Yes, and auto-accept edits"), or a plain "Yes". */
const PLAN_FIRST = /^[❯>›]?\s*1\.\s+Yes(?:, (?:and )?(?:clear context and )?auto-accept edits|, and switch to .*)?$/;
/**
 * What makes a dialog a permission dialog, checked before anything else: its question ("Do you want
 * to proceed?", "Do you want to make this edit to …"), its options ("don't ask again", "always
 * allow"), its footer ("Tab to amend") or a title naming a tool ("Bash command", "Edit file", …).
 */
const PERMISSION =
  /\bdo you want to (?:proceed|allow|make|create|overwrite|run|fetch|use|edit|delete|write|read|apply|execute|continue)\b|don't ask again|always allow|tab to amend|permission|^\s*(?:Bash command|(?:Edit|Create|Read|Write) file|Fetch|Web ?Search|Web ?Fetch|Notebook ?Edit|Tool use)\b|\(MCP\)/im;

/**
 * The lines the client draws its dialogs, menus and notices in: those below the last horizontal
 * rule on screen. Text a tool printed sits above (in the conversation), so it never counts as one.
 */
export function clientRegion(lines: readonly string[]): string[] {
  for (let i = lines.length - 1; i >= 0; i--) if (RULE.test(lines[i]!)) return lines.slice(i + 1);
  return [];
}

function findCompletion(lines: string[]): string | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (COMPLETION_LINE.test(line)) return line;
  }
  return undefined;
}

/**
 * A numbered menu with a selected option below the last rule means a dialog owns the keyboard. Any
 * sign of a permission dialog wins; the limit menu and the plan dialog are known by their own lines.
 */
function findBlocker(lines: string[]): Blocker | undefined {
  const region = clientRegion(lines);
  let at = -1;
  for (let i = region.length - 1; i >= 0 && at < 0; i--) if (MENU_OPTION.test(region[i]!)) at = i;
  if (at < 0) return undefined;
  if (PERMISSION.test(region.join("\n"))) return "permission";
  let first = at;
  while (first > 0 && ANY_OPTION.test(region[first - 1]!)) first--;
  if (LIMIT_OPTION.test(region[first]!)) return "limit";
  let q = first - 1;
  while (q >= 0 && region[q]!.trim() === "") q--;
  const question = q >= 0 ? region[q]!.trim() : "";
  if (PLAN_QUESTION.test(question) && PLAN_FIRST.test(region[first]!.trim())) return "plan";
  return "question";
}

/** The last `❯` line sits between two rules and holds nothing typed. */
/** The text in the input box (the last `❯` line right below a rule): "" when empty, undefined when none. */
function inputBox(lines: string[]): string | undefined {
  for (let i = lines.length - 1; i > 0; i--) {
    const line = lines[i]!;
    if (!/^\s*❯/.test(line)) continue;
    return /^\s*─{8,}/.test(lines[i - 1] ?? "") ? line.replace(/^\s*❯/, "").trim() : undefined;
  }
  return undefined;
}

/** What a pane shows of a limit: the newest limit line, and whether the client's limit menu is open. */
export interface PaneLimit {
  /** The newest `You've hit your … limit` (or 429) line on screen, when any. */
  message?: string;
  /** The menu `Stop and wait for limit to reset` / `Upgrade your plan` is open (2.1.197). */
  menu: boolean;
  /** The newer clients' notice `Usage limit reached · continuing automatically at 4:03pm` is shown (2.1.328+). */
  notice: boolean;
}

/**
 * Reads a pane's text (ANSI already stripped) for the limit line and menu. The menu and the notice
 * count only where the client draws them, below the last rule (`clientRegion`): a
 * tool's output above, in the conversation, is never one. The newest limit line gives the message.
 */
export function limitFromPane(text: string): PaneLimit {
  const lines = text.split("\n");
  let message: string | undefined;
  for (let i = lines.length - 1; i >= 0 && message === undefined; i--) message = limitMessage(lines[i]!);
  const blocker = classifyScreen(text).blocker;
  const notice = blocker === undefined && clientRegion(lines).some((l) => LIMIT_NOTICE.test(l));
  return { ...(message ? { message } : {}), menu: blocker === "limit", notice };
}

/** The newer clients' notice while they wait to continue by themselves (2.1.328, 2.1.332). */
const LIMIT_NOTICE = /Usage limit reached · (?:limit resets|continuing automatically|set to continue automatically)/i;
