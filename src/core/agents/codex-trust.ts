/**
 * How Codex CLI records that a hook is trusted (it skips untrusted hooks silently in `codex exec`):
 * `[hooks.state."<abs hooks.json>:<snake_case event>:<group>:<hook>"] trusted_hash = "sha256:<hex>"`
 * in the user's config.toml, the hex being the SHA-256 of the hook's identity: the JSON, keys sorted,
 * of `{event_name, matcher (when set), hooks: [the one hook with its defaults: async false,
 * timeout 600, a SessionEnd's capped at 3]}`. Matched against `codex app-server` `hooks/list` `currentHash` (0.169.0). Pure: the
 * caller hashes.
 */
import { isObject } from "../json.ts";
import { CODEX_SESSION_END_S, codex } from "./codex.ts";
import { ctxCommand, parseCtxCommand } from "../settings/entries.ts";

/** Codex's default hook timeout, in seconds, part of the identity when a hook sets none. */
const DEFAULT_TIMEOUT_S = 600;

/** One ctx hook of a hooks.json: its trust key and the text whose SHA-256 Codex records. */
export interface CodexHookId {
  key: string;
  identity: string;
}

/** `PostToolUse` → `post_tool_use`. */
export function snakeEvent(event: string): string {
  return event.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** The identity text of one hook (`hook`) of a group (`matcher`) of `event`. */
export function hookIdentity(event: string, matcher: unknown, hook: Record<string, unknown>): string {
  const one = { async: false, timeout: DEFAULT_TIMEOUT_S, ...hook };
  // Codex caps a SessionEnd hook's timeout, and hashes the capped entry.
  if (event === "SessionEnd" && typeof one.timeout === "number")
    one.timeout = Math.min(one.timeout, CODEX_SESSION_END_S);
  const id: Record<string, unknown> = { event_name: snakeEvent(event), hooks: [one] };
  if (typeof matcher === "string") id.matcher = matcher;
  return JSON.stringify(sorted(id));
}

/** A hook of a hooks.json that ctx did not write: never trusted by ctx, reported by install and doctor. */
export interface ForeignHook extends CodexHookId {
  /** Its command as written (a string, or the JSON of whatever it holds). */
  command: string;
}

/** The hooks of a parsed hooks.json: ctx's own (trusted by install) and every other one. */
export interface HookOwnership {
  own: CodexHookId[];
  foreign: ForeignHook[];
}

/**
 * Sorts the hooks of the parsed hooks.json at `path` into ctx's own and foreign ones. A hook is
 * ctx's own only where ctx writes it (settings/merge.ts): for each event and subcommand of the
 * Codex adapter, the first hook of that event whose command names that subcommand, and only when
 * its command is exactly `ctxCommand(binary, sub)` for a binary `ownBinary` accepts (`ctx` in a
 * project's file) and it holds no key ctx does not write. Any other hook, a `./tools/ctx track`
 * in a repository's file included, is foreign.
 */
export function hookOwnership(path: string, settings: unknown, ownBinary: (binary: string) => boolean): HookOwnership {
  const hooks = isObject(settings) && isObject(settings.hooks) ? settings.hooks : {};
  const own: CodexHookId[] = [];
  const foreign: ForeignHook[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    const subs = new Set<string>(codex.hooks.filter((h) => h.event === event).map((h) => h.sub));
    const placed = new Set<string>(); // the subcommands whose position (the first hook naming them) is passed
    groups.forEach((group, g) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return;
      group.hooks.forEach((hook, h) => {
        if (!isObject(hook)) return;
        const id = {
          key: `${path}:${snakeEvent(event)}:${g}:${h}`,
          identity: hookIdentity(event, group.matcher, hook),
        };
        const parsed = parseCtxCommand(hook.command);
        const first = parsed !== undefined && subs.has(parsed.sub) && !placed.has(parsed.sub);
        if (parsed && subs.has(parsed.sub)) placed.add(parsed.sub);
        const exact =
          parsed !== undefined &&
          hook.command === ctxCommand(parsed.binary, parsed.sub) &&
          Object.keys(hook).every((k) => keysOf(event, parsed.sub).has(k));
        if (first && exact && !parsed.chain && hook.type === "command" && ownBinary(parsed.binary)) own.push(id);
        else
          foreign.push({
            ...id,
            command: typeof hook.command === "string" ? hook.command : (JSON.stringify(hook.command) ?? ""),
          });
      });
    });
  }
  return { own, foreign };
}

/** The trust key and identity of every hook that looks like ctx's (parseCtxCommand) in a parsed hooks.json at `path`: what uninstall removes. */
export function ctxHookIds(path: string, settings: unknown): CodexHookId[] {
  const hooks = isObject(settings) && isObject(settings.hooks) ? settings.hooks : {};
  const out: CodexHookId[] = [];
  for (const [event, groups] of Object.entries(hooks)) {
    if (!Array.isArray(groups)) continue;
    groups.forEach((group, g) => {
      if (!isObject(group) || !Array.isArray(group.hooks)) return;
      group.hooks.forEach((hook, h) => {
        if (!isObject(hook) || !parseCtxCommand(hook.command)) return;
        out.push({ key: `${path}:${snakeEvent(event)}:${g}:${h}`, identity: hookIdentity(event, group.matcher, hook) });
      });
    });
  }
  return out;
}

/** The keys ctx writes in its hook entry for `sub` on `event`: a hook with any other key is not ctx's. */
function keysOf(event: string, sub: string): Set<string> {
  const spec = codex.hooks.find((h) => h.event === event && h.sub === sub);
  return new Set(["type", "command", "timeout", ...Object.keys(spec?.extra ?? {})]);
}

/** The `trusted_hash` of every `[hooks.state."<key>"]` table of a config.toml text. */
export function readTrust(toml: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const b of blocks(toml)) {
    const hash = /^\s*trusted_hash\s*=\s*"([^"]*)"/m.exec(b.text);
    if (hash) out.set(b.key, hash[1]!);
  }
  return out;
}

/** The config.toml text with each key trusted at its hash: an existing table's hash replaced, else a table appended. */
export function withTrust(toml: string, trust: ReadonlyArray<{ key: string; hash: string }>): string {
  let text = toml;
  for (const { key, hash } of trust) {
    const found = blocks(text).find((b) => b.key === key);
    const line = `trusted_hash = ${tomlString(hash)}`;
    if (found) {
      const body = /^\s*trusted_hash\s*=.*$/m.test(found.text)
        ? found.text.replace(/^\s*trusted_hash\s*=.*$/m, line)
        : found.text.replace(/\n?$/, `\n${line}\n`);
      text = text.slice(0, found.start) + body + text.slice(found.end);
    } else {
      const sep = text === "" || text.endsWith("\n\n") ? "" : text.endsWith("\n") ? "\n" : "\n\n";
      text += `${sep}[hooks.state.${tomlString(key)}]\n${line}\n`;
    }
  }
  return text;
}

/** The config.toml text without the `[hooks.state."<key>"]` tables of `keys` (and the blank line ctx put before each). */
export function withoutTrust(toml: string, keys: ReadonlySet<string>): string {
  let text = toml;
  for (const b of blocks(text).reverse()) {
    if (!keys.has(b.key)) continue;
    const start = b.start >= 1 && text.slice(b.start - 2, b.start) === "\n\n" ? b.start - 1 : b.start;
    text = text.slice(0, start) + text.slice(b.end);
  }
  return text;
}

// --- internal ---

interface Block {
  key: string;
  start: number;
  end: number;
  text: string;
}

/** The `[hooks.state."…"]` tables: from the header to the next table header (or the end). */
function blocks(toml: string): Block[] {
  const out: Block[] = [];
  const header = /^\[\s*hooks\s*\.\s*state\s*\.\s*"((?:[^"\\]|\\.)*)"\s*\][^\n]*(?:\n|$)/gm;
  for (let m = header.exec(toml); m; m = header.exec(toml)) {
    const next = /^\s*\[/m.exec(toml.slice(header.lastIndex));
    const end = next ? header.lastIndex + next.index : toml.length;
    out.push({ key: unescapeKey(m[1]!), start: m.index, end, text: toml.slice(m.index, end) });
  }
  return out;
}

function unescapeKey(s: string): string {
  try {
    return JSON.parse(`"${s}"`);
  } catch {
    return s;
  }
}

/** A TOML basic string (JSON's escapes are TOML's for these characters). */
function tomlString(s: string): string {
  return JSON.stringify(s);
}

function sorted(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sorted);
  if (!isObject(v)) return v;
  return Object.fromEntries(
    Object.keys(v)
      .sort()
      .map((k) => [k, sorted(v[k])]),
  );
}
