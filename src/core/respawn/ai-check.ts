/** The AI idle check's words: the question put to `claude -p` about the screen, and reading its verdict. */
import { stripAnsi } from "../screen.ts";

/** What the model said: `idle`, `working`, or `error` when it said neither (or both). */
export type Verdict = "idle" | "working" | "error";

/** How much of the screen's end the question carries. */
const SCREEN_TAIL = 16_000;

/** The question put to the model by the AI idle check: the ANSI-stripped tail of the screen. */
export function aiCheckPrompt(screen: string): string {
  const tail = stripAnsi(screen).slice(-SCREEN_TAIL);
  return `Below is the current screen of a Claude Code terminal session. Is the assistant still WORKING (a spinner, "esc to interrupt", a tool running) or IDLE (finished, waiting at the empty prompt for the user)? Answer with exactly one word: IDLE or WORKING.\n\n<screen>\n${tail}\n</screen>`;
}

/** Reads the verdict from the model's answer: `idle`, `working`, or `error` when it says neither. */
export function parseVerdict(text: string): Verdict {
  const up = text.toUpperCase();
  const idle = /\bIDLE\b/.test(up);
  const working = /\bWORKING\b/.test(up);
  if (idle === working) return "error";
  return idle ? "idle" : "working";
}
