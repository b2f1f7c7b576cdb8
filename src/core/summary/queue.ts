/**
 * Prompts the user typed while the agent worked (Claude Code's `queue-operation` lines and
 * `queued_command` attachments). A queued prompt is a request only once it was delivered: a
 * `dequeue`, a `remove` that the agent then acts on, or a `queued_command` attachment. A
 * `popAll` took the queue back into the input box (what is sent again shows as a typed line);
 * a prompt still waiting when the transcript ends was never read by the agent. Pure.
 */
import type { Facts } from "./facts.ts";
import { queuedPrompt } from "./requests.ts";
import { onQueued } from "./user-turns.ts";
import { fieldsOf } from "../json.ts";
import { onNotice } from "./open-work.ts";

/** Most prompts remembered as waiting. */
const MAX_WAITING = 20;

/** Reads a `queue-operation` line or a `queued_command` attachment; false for any other line. */
export function onQueueLine(f: Facts, e: Record<string, unknown>): boolean {
  if (e.type === "attachment" && fieldsOf(e.attachment).type === "queued_command") {
    onNotice(f, fieldsOf(e.attachment).prompt);
    const text = queuedPrompt(e);
    if (text !== null) {
      dropWaiting(f, text);
      onQueued(f, text, f.lineAt, [f.line]);
    }
    return true;
  }
  if (e.type !== "queue-operation") return false;
  const op = e.operation;
  if (op === "enqueue") {
    // A task's notice is written when the task ends, whether or not the agent ever reads it.
    onNotice(f, e.content);
    const text = queuedPrompt(e);
    if (text !== null) {
      f.waiting.push({ text, at: f.lineAt, line: f.line, removed: false });
      if (f.waiting.length > MAX_WAITING) f.waiting.shift();
    }
  } else if (op === "dequeue") {
    const w = f.waiting.shift();
    if (w) onQueued(f, w.text, w.at, [w.line, f.line]);
  } else if (op === "remove") {
    const w = f.waiting.find((x) => !x.removed);
    if (w) {
      w.removed = true;
      w.line = f.line;
    }
  } else if (op === "popAll") f.waiting = [];
  return true;
}

/** The agent answered (a main-chain assistant line): prompts removed from the queue were delivered to it. */
export function onAgentActs(f: Facts): void {
  if (!f.waiting.some((w) => w.removed)) return;
  const delivered = f.waiting.filter((w) => w.removed);
  f.waiting = f.waiting.filter((w) => !w.removed);
  for (const w of delivered) onQueued(f, w.text, w.at, [w.line]);
}

// --- internal ---

function dropWaiting(f: Facts, text: string): void {
  const key = text.replace(/\s+/g, " ").trim();
  f.waiting = f.waiting.filter((w) => w.text.replace(/\s+/g, " ").trim() !== key);
}
