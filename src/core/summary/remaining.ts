/**
 * What remains, in the agent's own words: its last message of the session names work it left
 * undone under a heading or a lead-in of its own ("Remaining:", "## Not yet done", "**Still to
 * do**", "TODO:"), the way the client's own compaction summary writes "Pending Tasks". Suggestions
 * ("Next steps", anything "optional") are not open work. Pure.
 */
import type { Facts } from "./facts.ts";
import { oneLine, push } from "./ring.ts";

/** Most characters of a message kept. */
const MAX_TEXT = 8000;
/** Most items carried from one message. */
const MAX_ITEMS = 6;

/** A heading or lead-in that names work left undone (after any `#`, `**`, bullet); group 1 the rest of its line. */
const REMAINS =
  /^(?:remaining(?:\s+(?:work|tasks?|items?|steps?|issues?))?|still\s+(?:to\s+do|to\s+be\s+done|open|pending|needed|missing|failing|broken)|not\s+(?:yet\s+)?(?:done|implemented|fixed|finished|addressed|completed)|(?:todos?|to-?dos?)|left\s+to\s+do|pending(?:\s+(?:work|tasks?|items?))?|outstanding(?:\s+(?:work|tasks?|items?|issues?))?|open\s+(?:items|tasks|issues|work)|what'?s\s+left|what\s+remains|unresolved|blocked|blockers?|deferred)\b(.*)$/i;
/** A heading that offers rather than leaves work: not open work. */
const OFFER = /optional|suggest|idea|nice[\s-]to[\s-]have|could|consider|if you|future|maybe|later\?/i;
/** An answer that nothing is left. */
const NOTHING = /^(?:none|nothing|n\/a|no\b|all\s+(?:done|complete)|0\b|-$)/i;
/** A list item: `- x`, `* x`, `1. x`, `- [ ] x`; group 1 the box's mark, group 2 the text. */
const ITEM = /^\s{0,6}(?:[-*+•]|\d{1,3}[.)])\s+(?:\[( |x|X)\]\s+)?(.+?)\s*$/;

/** A sentence that says work is left: "still needs to", "haven't run it yet", "is not yet wired", "left to do". */
const LEFT =
  /\b(?:still\s+needs?\s+to|(?:i|we)\s+haven['’]?t\s+(?:[\w-]+\s+){1,6}?yet|(?:has|have)n['’]?t\s+been\s+\w+ed\s+yet|not\s+(?:been\s+)?\w+ed\s+yet|(?:is|are)\s+not\s+yet|remaining\s+(?:work|steps?|pieces?|tasks?|items?)\s+(?:is|are)|left\s+to\s+do|not\s+(?:yet\s+)?(?:done|finished|implemented|fixed|wired|tested))\b/i;
/** A sentence that is the agent's next move or says nothing is left: not open work by itself. */
const NOT_LEFT = /^(?:let me|i'll|i will|now\b|next,? i)|\b(?:nothing|none|no longer)\b/i;
/** Most sentences carried. */
const MAX_SENTENCES = 3;

/**
 * An agent's message (a client whose messages are plain text) in the facts: its last words, what it
 * says is left ({@link noteAgentWords}), and its line among the turn's texts and decisions.
 */
export function noteAgentMessage(f: Facts, text: string): void {
  f.lastAgentText = oneLine(text, 400);
  noteAgentWords(f, text);
  push(f.agentTexts, oneLine(text, 300));
  push(f.decisionLines, f.line);
  f.lastAgentLine = f.line;
  f.turnTexts += 1;
}

/** Notes an agent text message (its raw text, for remainingWork). */
export function noteAgentWords(f: Facts, text: string): void {
  f.lastWordsText = { text: text.slice(0, MAX_TEXT), line: f.line };
}

/**
 * The work the agent's last message leaves open, as one item with its line; none when that message
 * came before the newest request (it answers an older one) or names nothing left.
 */
export function remainingWork(f: Facts): { text: string; evidence: number[] } | null {
  const w = f.lastWordsText;
  const asked = f.latestLines.at(-1) ?? 0;
  if (!w || w.line <= 0 || w.line < asked) return null;
  const found = remainsIn(w.text);
  if (!found) {
    const said = leftIn(w.text);
    return said.length
      ? {
          text: `the agent's last message says work is left: ${said.map((x) => `"${oneLine(x, 200)}"`).join("; ")}`,
          evidence: [w.line],
        }
      : null;
  }
  return {
    text: `the agent's last message names work still to do (${found.head}): ${found.items.map((x) => oneLine(x, 160)).join("; ")}`,
    evidence: [w.line],
  };
}

/**
 * The first heading or lead-in of `text` that names work left undone, and its items: a heading that
 * is the phrase alone ("## Remaining", "**Still to do:** x"), or a sentence leading into a list that
 * says work is left ("The remaining tasks are:").
 */
export function remainsIn(text: string): { head: string; items: string[] } | null {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const bare = lines[i]!.replace(/^\s*(?:#{1,6}\s+|[-*+•]\s+)?/, "")
      .replace(/[*_]{2}/g, "")
      .trim();
    if (/:$/.test(bare) && LEFT.test(bare) && !NOT_LEFT.test(bare) && !OFFER.test(bare)) {
      const items = listAfter(lines, i);
      if (items.length && !NOTHING.test(items[0]!)) return { head: oneLine(bare.slice(0, -1), 60), items };
      continue;
    }
    const m = REMAINS.exec(bare);
    if (!m) continue;
    // The phrase is the whole heading: nothing after it but a note in brackets and a colon.
    const rest = m[1]!.replace(/^\s*\([^)]*\)/, "").trim();
    if (rest && !rest.startsWith(":")) continue;
    const heading = /^#{1,6}\s/.test(lines[i]!.trim()) || rest.startsWith(":") || /^[*_]{2}/.test(lines[i]!.trim());
    if (!heading || OFFER.test(bare)) continue;
    const head = oneLine(bare.replace(/:.*$/, ""), 60);
    const inline = rest.replace(/^:\s*/, "").trim();
    if (inline) {
      if (NOTHING.test(inline)) return null;
      return { head, items: [inline] };
    }
    const items = listAfter(lines, i);
    if (items.length && !NOTHING.test(items[0]!)) return { head, items };
  }
  return null;
}

/** The list right after line `i` (blank lines before it skipped), its items not ticked or struck through. */
function listAfter(lines: string[], i: number): string[] {
  const items: string[] = [];
  for (let j = i + 1; j < lines.length && items.length < MAX_ITEMS; j++) {
    const line = lines[j]!;
    if (!line.trim()) {
      if (items.length) break;
      continue;
    }
    const it = ITEM.exec(line);
    if (!it) break;
    const done = /x/i.test(it[1] ?? "") || /^~~.*~~$/.test(it[2]!) || /(?:✅|✓)\s*$/.test(it[2]!);
    if (!done) items.push(it[2]!.replace(/\*\*/g, ""));
  }
  return items;
}

/** The sentences of `text` (code blocks and code-like lines left out) that say work is left. */
export function leftIn(text: string): string[] {
  const prose = text
    .replace(/```[\s\S]*?(?:```|$)/g, "\n")
    .split("\n")
    .filter((l) => !/^\s*(?:\/\/|#!|throw\b|[{}[\]]|"[^"]*"\s*:)/.test(l) && !/`[^`]*$/.test(l.replace(/`[^`]*`/g, "")))
    .join("\n");
  const out: string[] = [];
  for (const s of prose.split(/(?<=[.!?])\s+|\n+/)) {
    const t = s.replace(/^[\s>*_#-]+|\*\*/g, "").trim();
    if (t && LEFT.test(t) && !NOTHING.test(t) && !NOT_LEFT.test(t)) out.push(t);
    if (out.length >= MAX_SENTENCES) break;
  }
  return out;
}
