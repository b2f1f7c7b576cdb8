/**
 * Which user messages are real requests: not ctx's own prompts (kickstart,
 * update, compact, the resume prompt) and not `continue`-style one-liners.
 * Pure.
 */
import { shellParts } from "./shell-parse.ts";

/** Opening words of the prompts `ctx resume` and the resume hook build (core/resume/prompt.ts). */
const RESUME_MARKERS = [
  "<previous-session-summary>",
  "Read the previous session's summary below and continue the remaining work.",
  "You are continuing the work of a previous Claude Code session",
];

/** A short message that only says "go on". */
const CONTINUE_ONLY =
  /^(?:(?:ok(?:ay)?|yes|yep|sure|great|thanks|good)[\s,.!]*)?(?:please\s+)?(?:continue|go on|go ahead|keep going|keep working|carry on|proceed|resume|next|do it|ok(?:ay)?|yes|yep|y|sure)(?:\s+(?:please|now|working|the work|the task|the tasks|with (?:the )?(?:work|task|tasks|plan)|from (?:the )?summary|where you left off|from where you left off))*[\s.!]*$/i;

/** Whitespace-collapsed, lower case: how prompts are compared. */
function norm(text: string): string {
  return text.replace(/\s+/g, " ").trim().toLowerCase();
}

/**
 * True when `text` is not a real request: one of `ownPrompts` (ctx's configured
 * prompts: kickstart, update, compact; compared without case and extra space,
 * also when the client cut or extended it), a resume prompt, or a one-line
 * "continue" (unless `oneLiners` is false: a "yes please" that answers the agent's question).
 */
export function isOwnPrompt(text: string, ownPrompts: readonly string[], oneLiners = true): boolean {
  const t = norm(text);
  if (!t) return true;
  if (RESUME_MARKERS.some((m) => text.includes(m))) return true;
  if (oneLiners && t.length <= 60 && CONTINUE_ONLY.test(t)) return true;
  for (const p of ownPrompts) {
    const q = norm(p);
    if (q.length < 4) continue;
    if (t === q || t.startsWith(q) || (t.length >= 40 && q.startsWith(t))) return true;
  }
  return false;
}

/** Bash commands that only read: they are never "the last meaningful step". */
const READ_ONLY =
  /^(?:ls|ll|cat|head|tail|less|more|pwd|echo|printf|wc|grep|egrep|fgrep|rg|ag|find|fd|tree|stat|file|which|type|whoami|date|env|printenv|du|df|id|uname|true|sleep|nl|bat|realpath|readlink|basename|dirname|test|\[|sed\s+-n|awk|jq|git\s+(?:status|diff|log|show|branch|remote|rev-parse|ls-files|blame|grep|describe|config\s+--get))(?=\s|$)/;

/**
 * True when a successful Bash command changed something: not a pure read such
 * as `ls`, `cat`, `git status` or `git diff` (every part of a `&&`, `;` or `|`
 * chain must read for the whole to count as a read).
 */
export function isMeaningfulCommand(command: string): boolean {
  // Quote-aware: a `|` inside a pattern (`grep "a\|b"`) splits nothing.
  const parts = shellParts(command)
    .map((p) =>
      p.words
        .join(" ")
        .trim()
        .replace(/^(?:sudo)\s*/, "")
        // git's global flags before the subcommand: `git -C dir log` reads like `git log`
        .replace(/^git\s+(?:(?:-C|-c)\s+\S+\s+|--no-pager\s+)+/, "git "),
    )
    .filter((p) => p !== "" && !/^cd(?:\s|$)/.test(p));
  if (parts.length === 0) return false;
  const unquoted = command.replace(/'[^']*'|"(?:[^"\\]|\\.)*"/g, "''");
  return parts.some((p) => !READ_ONLY.test(p)) || WRITES.test(unquoted);
}

/** A redirection that writes a file (not `2>&1`, not `/dev/null`). */
const WRITES = /(?:^|[^<>&\d])>{1,2}[ \t]*(?!&|\/dev\/null\b)[^\s&|;<>]/;
