/**
 * "A client is a folder" (ARCHITECTURE.md, Adding a client), checked two ways:
 * - which files in src/ name each client: its own files (`core/agents/<name>.ts`, `<name>-*.ts`), the
 *   registry files, and for the clients older than the adapters a pinned list of the files that still
 *   name them (it may only shrink);
 * - a fifth client, written as a throwaway adapter into a copy of src/ with only the registry files
 *   edited, is decoded, installed, warned and summarised like the others.
 */
import { afterAll, beforeAll, expect, test } from "bun:test";
import { cpSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { AGENTS } from "../src/core/agents/index.ts";
import { isolatedEnv, tempDir } from "./helpers/tmp.ts";
import { makeHome } from "./install/settings-home.ts";

const SRC = join(import.meta.dir, "..", "src");

/** The files outside a client's own that register it: the whole of what a new client edits. */
const REGISTRY = ["core/agents/index.ts", "core/agents/summaries.ts"];

/**
 * Files that still name a client older than the adapters (its features built before them: the respawn
 * driver, the plugin and mod, `ctx run`, Codex's hook trust, the doctor's checks of Gemini CLI's setup). Pinned so
 * that the list only shrinks: a new file naming one of them fails here.
 */
const LEGACY: Record<string, readonly string[]> = JSON.parse(
  readFileSync(join(import.meta.dir, "agents-folder-legacy.json"), "utf8"),
);

function sources(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith(".ts") ? [join(dir, e.name)] : [],
  );
}

/** A client's own files: its adapter and helpers in core/agents/. */
function own(name: string, rel: string): boolean {
  return rel === `core/agents/${name}.ts` || rel.startsWith(`core/agents/${name}-`);
}

test("no file in src/ names a client but its own, the registry and (older clients) the pinned list", () => {
  const texts = sources().map((f) => [relative(SRC, f), readFileSync(f, "utf8").toLowerCase()] as const);
  expect(AGENTS.map((a) => a.name).sort()).toEqual(["claude", "codex", "gemini", "opencode"]);
  for (const a of AGENTS) {
    // any spelling, in code, strings or comments: `opencode`, `OpenCode`, `OPENCODE_…`
    const naming = texts
      .filter(([, text]) => text.includes(a.name) || text.includes(a.label.toLowerCase()))
      .map(([rel]) => rel);
    const outside = naming.filter((rel) => !own(a.name, rel) && !REGISTRY.includes(rel)).sort();
    expect({ client: a.name, outside }).toEqual({ client: a.name, outside: [...(LEGACY[a.name] ?? [])].sort() });
  }
  // the newest client, built on the adapters, is named nowhere else
  expect(LEGACY.opencode).toBeUndefined();
  expect(REGISTRY.length).toBeLessThanOrEqual(4);
});

// --- a fifth client in a copy of src/ ---

const ADAPTER = `/** Acme, a client that exists only in this test: hook entries, a JSONL transcript. */
import { isObject } from "../json.ts";
import { count } from "../usage.ts";
import type { AgentAdapter } from "./types.ts";

/** Acme's adapter. */
export const acme: AgentAdapter<"acme"> = {
  name: "acme",
  label: "Acme Agent",
  process: { name: /^acme(\\.exe)?$/i, path: /\\/acme-agent\\// },
  settings: { dir: ".acme", file: "hooks.json" },
  statusLine: false,
  timeoutUnit: 1,
  hooks: [
    { event: "acme.tool", sub: "monitor" },
    { event: "acme.tool", sub: "track" },
    { event: "acme.start", sub: "resume --hook" },
  ],
  events: { "acme.tool": "PostToolUse", "acme.start": "SessionStart" },
  fields: (event, input) => ({ ...input, hook_event_name: event }),
  claimsHook: (input) => String(input.hook_event_name).startsWith("acme."),
  claimsLine: (e) => e.kind === "acme.step",
  transcript: {
    needles: ['"acme.step"'],
    // the line records its window, as a Codex rollout does
    usage: (e) =>
      isObject(e.usage) ? { usedTokens: count(e.usage.context), windowSize: count(e.usage.window) } : undefined,
    tokens: () => undefined,
  },
  toolNeedle: (id) => \`"call":"\${id}"\`,
  windowOf: () => undefined,
  pane: { busy: /working/, idle: /^> $/m },
};
`;

const SUMMARY = `/** Acme's transcript lines in the summary's facts. */
import { isObject } from "../json.ts";
import { noteLatest } from "../summary/collect.ts";
import type { Facts } from "../summary/facts.ts";
import { onUserText } from "../summary/user-turns.ts";

/** One Acme line. */
export function addAcmeLine(f: Facts, e: Record<string, unknown>): void {
  if (typeof e.said === "string") onUserText(f, e.said);
  if (isObject(e.usage) && typeof e.usage.context === "number") noteLatest(f, e.usage.context, e.timestamp);
}
`;

/** The copy's root, with src/ and the two registry files edited. */
let root: string;
let cleanup: () => void;
beforeAll(() => {
  ({ dir: root, cleanup } = tempDir("ctx-fifth-"));
  cpSync(SRC, join(root, "src"), { recursive: true });
  writeFileSync(join(root, "src/core/agents/acme.ts"), ADAPTER);
  writeFileSync(join(root, "src/core/agents/acme-summary.ts"), SUMMARY);
  const edit = (rel: string, from: RegExp, to: string) => {
    const p = join(root, "src", rel);
    const before = readFileSync(p, "utf8");
    writeFileSync(p, before.replace(from, to));
    expect(readFileSync(p, "utf8")).not.toBe(before);
  };
  edit(REGISTRY[0]!, /^/, 'import { acme } from "./acme.ts";\n');
  edit(REGISTRY[0]!, /export const AGENTS = \[/, "export const AGENTS = [acme, ");
  edit(REGISTRY[1]!, /^/, 'import { addAcmeLine } from "./acme-summary.ts";\n');
  edit(REGISTRY[1]!, /SUMMARY_DECODERS: ([^=]+)= \{/, "SUMMARY_DECODERS: $1= {\n  acme: addAcmeLine,");
});
afterAll(() => cleanup());

/** Runs the copy's ctx (from source) with `stdin`. */
function ctx(args: string[], env: Record<string, string>, stdin = ""): { code: number; out: string } {
  const p = Bun.spawnSync([process.execPath, join(root, "src/main.ts"), ...args], {
    env,
    stdin: Buffer.from(stdin),
    stdout: "pipe",
    stderr: "pipe",
  });
  return { code: p.exitCode ?? -1, out: p.stdout.toString() };
}

test("a fifth client registered in the two registry files only is decoded, installed, warned and summarised", async () => {
  // the copy differs from src/ in the registry files and the client's own files, nothing else
  const changed = sources(join(root, "src"))
    .map((f) => relative(join(root, "src"), f))
    .filter((rel) => {
      try {
        return readFileSync(join(SRC, rel), "utf8") !== readFileSync(join(root, "src", rel), "utf8");
      } catch {
        return true; // new in the copy
      }
    });
  expect(changed.sort()).toEqual([...REGISTRY, "core/agents/acme-summary.ts", "core/agents/acme.ts"].sort());
  const agents = await import(join(root, "src/core/agents/index.ts"));
  const ev = agents.decodeHook({ hook_event_name: "acme.tool", session_id: "s1", tool_use_id: "call_00000001" });
  expect(ev).toMatchObject({
    agent: "acme",
    event: "PostToolUse",
    sessionId: "s1",
    waitNeedle: '"call":"call_00000001"',
  });
  expect(agents.flaggedAgent({ acme: true })).toBe("acme");
  const proc = await import(join(root, "src/core/agents/process.ts"));
  expect(proc.agentClientOf("acme", ["/usr/bin/acme"])).toBe("Acme Agent");

  const collect = await import(join(root, "src/core/summary/collect.ts"));
  const facts = (await import(join(root, "src/core/summary/facts.ts"))).emptyFacts();
  collect.addEntry(facts, { kind: "acme.step", said: "port the parser to Rust", usage: { context: 42_000 } }, 1);
  expect(facts.latestTokens).toBe(42_000);
  expect(facts.unclaimedLines).toBe(0);

  // install writes Acme's hook entries (with a built binary's path, as the install tests give it)
  const { install } = await import(join(root, "src/commands/install.ts"));
  const h = makeHome();
  try {
    expect(install(["--acme"], h.deps, "/opt/ctx/bin/ctx")).toBe(0);
    const hooks = JSON.parse(readFileSync(join(h.home, ".acme", "hooks.json"), "utf8"));
    expect(JSON.stringify(hooks.hooks["acme.tool"])).toContain("/opt/ctx/bin/ctx monitor");
    expect(JSON.stringify(hooks.hooks["acme.start"])).toContain("/opt/ctx/bin/ctx resume --hook");
  } finally {
    h.cleanup();
  }

  // the monitor, run from the copy's source, warns from Acme's transcript
  const t = tempDir();
  try {
    const project = join(t.dir, "proj");
    mkdirSync(join(project, ".ctx"), { recursive: true });
    const env = isolatedEnv(t.dir);
    mkdirSync(env.TMPDIR!, { recursive: true });
    const transcript = join(t.dir, "acme.jsonl");
    writeFileSync(
      transcript,
      `${JSON.stringify({ kind: "acme.step", usage: { context: 70_000, window: 100_000 } })}\n`,
    );
    const payload = { hook_event_name: "acme.tool", session_id: "s1", transcript_path: transcript, cwd: project };
    const out = JSON.parse(ctx(["monitor"], env, JSON.stringify(payload)).out);
    expect(out.hookSpecificOutput.hookEventName).toBe("acme.tool");
    expect(out.hookSpecificOutput.additionalContext).toContain("70% of the context window is used");
  } finally {
    t.cleanup();
  }
});
