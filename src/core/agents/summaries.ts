/**
 * Each client's summary decoder, by adapter name: what one of its transcript lines (or store rows)
 * adds to the handoff's facts. A registry beside `AGENTS` (index.ts), kept apart from the adapters so
 * the hooks' hot path, which loads every adapter, never loads the summary's modules; its type makes a
 * client without a decoder a compile error.
 */
import type { Facts } from "../summary/facts.ts";
import { addClaudeLine } from "./claude-summary.ts";
import { addCodexLine } from "./codex-summary.ts";
import { addGeminiRecord } from "./gemini-summary.ts";
import type { AgentName } from "./index.ts";
import { addOpenCodeRow } from "./opencode-summary.ts";

/** Adds one record of its client's transcript to the facts, in place. */
export type SummaryDecoder = (f: Facts, e: Record<string, unknown>) => void;

/** Every client's summary decoder. */
export const SUMMARY_DECODERS: { readonly [K in AgentName]: SummaryDecoder } = {
  claude: addClaudeLine,
  gemini: addGeminiRecord,
  codex: addCodexLine,
  opencode: addOpenCodeRow,
};
