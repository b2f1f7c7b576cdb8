/**
 * OpenCode (`opencode-ai`, V1 plugin API of 1.18.33): no shell hooks; ctx's plugin
 * (opencode-plugin.ts) runs inside it and calls `ctx` with a typed payload in OpenCode's own event
 * names, only when something can change. Usage and the model's limits come in the payload, from the
 * session's own messages and `chat.params`; the transcript is the SQLite store, read by the rows'
 * decoders (opencode-rows.ts). Facts: docs/opencode.md.
 */
import { isObject } from "../json.ts";
import { count } from "../usage.ts";
import { openCodeStore, openCodeTranscript, OPENCODE_ROWS } from "./opencode-rows.ts";
import { openCodePlugin } from "./opencode-plugin.ts";
import type { AgentAdapter, PayloadUsage } from "./types.ts";

/** OpenCode's default cap on a request's output (`OPENCODE_EXPERIMENTAL_OUTPUT_TOKEN_MAX`). */
const OUTPUT_MAX = 32_000;

/** OpenCode's adapter. */
export const opencode: AgentAdapter<"opencode"> = {
  name: "opencode",
  label: "OpenCode",
  process: { name: /^opencode(\.exe)?$/i, path: /opencode-ai[^/]*\/|\/opencode-(linux|darwin|windows)-[^/]*\// },
  // The plugin folder: `~/.config/opencode/plugins/` (XDG_CONFIG_HOME) or `<project>/.opencode/plugins/`.
  settings: { dir: ".opencode", file: "plugins/ctx.js" },
  statusLine: false,
  timeoutUnit: 1000,
  // No hook entries: the plugin calls ctx (install writes the plugin file, opencode-plugin.ts).
  hooks: [],
  events: {
    "session.created": "SessionStart",
    "chat.message": "UserPromptSubmit",
    "chat.messages.transform": "PostToolUse",
    "session.idle": "Stop",
    "experimental.session.compacting": "PreCompact",
    "session.compacted": "PostCompact",
    // Sent by the plugin when the session is left: a new one (/new) or OpenCode's exit.
    "session.deleted": "SessionEnd",
  },
  fields(event, input) {
    const out: Record<string, unknown> = { ...input, hook_event_name: event };
    if (event === "PreCompact") out.trigger = "auto";
    return out;
  },
  // OpenCode's dotted event names are its own; the plugin also names its client.
  claimsHook: (input) => input.client === "opencode" && typeof input.hook_event_name === "string",
  claimsLine: (e) => typeof e.table === "string" && OPENCODE_ROWS.has(e.table) && isObject(e.data),
  transcript: openCodeTranscript,
  store: openCodeStore,
  plugin: openCodePlugin,
  toolNeedle: (id) => `"callID":"${id}"`,
  hookUsage: payloadUsage,
  // The window is the model's limit the payload carries: never a guess from the model name.
  windowOf: () => undefined,
  // A new `opencode run` or `/new` is a new session of the same work: it gets the chain's summary.
  startupContinues: true,
  pane: { busy: /esc interrupt/i, idle: /ctrl\+p commands/i, context: /\((\d+)%\)/ },
};

/**
 * The payload's usage: the last step's tokens (`input + output + reasoning + cache.read + cache.write`, as
 * OpenCode's own footer counts), and the window ctx measures against: the context OpenCode compacts at
 * while auto-compaction is on (`limit.input − reserved`, or `limit.context − min(limit.output, 32k)`),
 * so every level of ctx's ladder comes before OpenCode's own compaction; else the model's context.
 */
export function payloadUsage(input: Record<string, unknown>): PayloadUsage | undefined {
  const t = input.tokens;
  const limit = input.limit;
  if (!isObject(t) || !isObject(limit)) return undefined;
  const cache = isObject(t.cache) ? t.cache : {};
  const used =
    count(t.total) || count(t.input) + count(t.output) + count(t.reasoning) + count(cache.read) + count(cache.write);
  const windowSize = compactionPoint(limit, isObject(input.compaction) ? input.compaction : {});
  if (!windowSize) return undefined;
  return { usedTokens: used, windowSize, model: typeof input.model === "string" ? input.model : undefined };
}

/** Where OpenCode compacts (its `usable`), or the context when auto-compaction is off; 0 when unknown. */
export function compactionPoint(limit: Record<string, unknown>, compaction: Record<string, unknown>): number {
  const context = count(limit.context);
  if (!context) return 0;
  if (compaction.auto === false) return context;
  const maxOut = Math.min(count(limit.output) || OUTPUT_MAX, OUTPUT_MAX);
  const input = count(limit.input);
  const reserved = typeof compaction.reserved === "number" ? count(compaction.reserved) : undefined;
  const usable = input ? input - (reserved ?? Math.min(20_000, maxOut)) : context - maxOut;
  return usable > 0 ? Math.min(usable, context) : context;
}
