/**
 * Mutations of a recorded payload: structural ones on the parsed JSON (wrong
 * types, dropped keys, huge strings, hostile values) and byte-level ones on
 * its text (truncation, invalid UTF-8, NUL bytes, deep nesting, garbage).
 * Each generated input carries the names of the mutations applied, so a
 * failure reads as a reproducible recipe together with the seed.
 */
import type { Rng } from "./fuzz-rng.ts";

type Json = Record<string, unknown>;

/** One generated input. */
export interface FuzzInput {
  /** The bytes fed on stdin. */
  bytes: Uint8Array;
  /** The mutations applied, in order. */
  recipe: string[];
}

/** Values that have broken parsers and path builders before. */
export const HOSTILE_STRINGS = [
  "",
  " ",
  "../../../../etc/passwd",
  "../x",
  "a/b",
  "/",
  ".",
  "..",
  "x".repeat(129),
  "x".repeat(100_000),
  "\u0000",
  "a\u0000b",
  "\n",
  "a\nb\r\n",
  "\u001b[31mred\u001b[0m",
  "\u202eevil",
  "\u2066iso\u2069",
  "a\u2028b\u2029",
  "a\u0085b",
  "\u009b31m",
  "\ud800",
  "😀".repeat(50),
  "%s%n",
  "${HOME}",
  "$(touch pwned)",
  "`id`",
  "C:\\\\x",
  "~",
  "~/.ssh/id_rsa",
  "NaN",
  "-1",
  "1e999",
  "null",
];

/** Hostile transcript paths: devices, a FIFO, a directory, relative and missing paths (the sandbox adds its own). */
export const HOSTILE_PATHS = [
  "/dev/zero",
  "/dev/urandom",
  "/dev/null",
  "/proc/self/mem",
  "/proc/self/status",
  "/",
  "/nonexistent/x.jsonl",
  "relative.jsonl",
  "",
  "/etc/shadow",
];

const NUMBERS = [0, -1, -0, 1, 0.5, 1e308, -1e308, 2 ** 53 + 1, 101, 100, 99.999, 1e-300, Number.MAX_SAFE_INTEGER];

/** Generates one mutated input from `seed`, with extra hostile paths from the sandbox. */
export function mutate(rng: Rng, seed: Json, extraPaths: string[]): FuzzInput {
  const recipe: string[] = [];
  let value: unknown = structuredClone(seed);
  const structural = rng.int(4);
  for (let i = 0; i < structural; i++) value = structuralMutation(rng, value, extraPaths, recipe);
  let text: string;
  try {
    text = JSON.stringify(value) ?? "null";
  } catch {
    text = "{}";
  }
  let bytes: Uint8Array = Buffer.from(text);
  const textual = rng.chance(0.5) ? 1 + rng.int(2) : 0;
  for (let i = 0; i < textual; i++) bytes = byteMutation(rng, bytes, recipe);
  return { bytes, recipe };
}

// --- internal ---

function structuralMutation(rng: Rng, root: unknown, paths: string[], recipe: string[]): unknown {
  const slots = collectSlots(root);
  if (slots.length === 0) return root;
  const slot = rng.pick(slots);
  const kind = rng.int(8);
  const set = (v: unknown, name: string) => {
    recipe.push(`${name}@${slot.path}`);
    if (slot.parent === undefined) return v;
    (slot.parent as Record<string, unknown>)[slot.key!] = v;
    return root;
  };
  switch (kind) {
    case 0:
      return set(randomValue(rng), "wrong-type");
    case 1: {
      recipe.push(`drop@${slot.path}`);
      if (slot.parent === undefined) return {};
      if (Array.isArray(slot.parent)) slot.parent.splice(Number(slot.key), 1);
      else delete (slot.parent as Record<string, unknown>)[slot.key!];
      return root;
    }
    case 2:
      return set(rng.pick(HOSTILE_STRINGS), "hostile-string");
    case 3:
      return set(rng.pick([...HOSTILE_PATHS, ...paths]), "hostile-path");
    case 4:
      return set(rng.pick(NUMBERS), "edge-number");
    case 5:
      return set("y".repeat(rng.pick([1024, 65_536, 1_000_000, 3_000_000])), "huge-string");
    case 6:
      return set(nested(rng.pick([100, 1000, 5000])), "nested");
    default:
      return set(typeof slot.value === "number" ? String(slot.value) : slot.value, "stringified");
  }
}

interface Slot {
  parent?: unknown;
  key?: string;
  path: string;
  value: unknown;
}

function collectSlots(root: unknown): Slot[] {
  const out: Slot[] = [{ path: "$", value: root }];
  const walk = (v: unknown, path: string, depth: number) => {
    if (!v || typeof v !== "object" || depth > 6) return;
    for (const [k, child] of Object.entries(v)) {
      out.push({ parent: v, key: k, path: `${path}.${k}`, value: child });
      walk(child, `${path}.${k}`, depth + 1);
    }
  };
  walk(root, "$", 0);
  return out;
}

function randomValue(rng: Rng): unknown {
  return rng.pick<unknown>([null, true, false, 0, -1, 1e308, "", "str", [], [1, "a"], {}, { a: { b: null } }, [[[]]]]);
}

function nested(depth: number): unknown {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { k: v };
  return v;
}

const INVALID_UTF8 = [
  [0xff],
  [0xfe, 0xff],
  [0xc3],
  [0xed, 0xa0, 0x80],
  [0xf4, 0x90, 0x80, 0x80],
  [0xc0, 0xaf],
  [0x80, 0x80],
];

function byteMutation(rng: Rng, bytes: Uint8Array, recipe: string[]): Uint8Array {
  const at = rng.int(bytes.length + 1);
  const splice = (insert: Uint8Array | number[]) =>
    Buffer.concat([bytes.subarray(0, at), Buffer.from(insert), bytes.subarray(at)]);
  switch (rng.int(9)) {
    case 0:
      recipe.push(`truncate@${at}`);
      return bytes.subarray(0, at);
    case 1:
      recipe.push(`invalid-utf8@${at}`);
      return splice(rng.pick(INVALID_UTF8));
    case 2:
      recipe.push(`nul@${at}`);
      return splice([0, 0, 0].slice(0, 1 + rng.int(3)));
    case 3: {
      const depth = rng.pick([1000, 10_000, 100_000]);
      recipe.push(`deep-nesting-${depth}@${at}`);
      return splice(Buffer.from(`${"[".repeat(depth)}${"]".repeat(rng.chance(0.5) ? depth : depth >> 1)}`));
    }
    case 4: {
      const out = Buffer.from(bytes);
      const n = 1 + rng.int(8);
      for (let i = 0; i < n && out.length; i++) out[rng.int(out.length)] = rng.int(256);
      recipe.push(`flip-${n}`);
      return out;
    }
    case 5:
      recipe.push("doubled");
      return Buffer.concat([bytes, bytes]);
    case 6:
      recipe.push("bom");
      return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
    case 7: {
      const whole = rng.pick(["", " \n\t", "null", "[]", '"str"', "1e999", "{", "}", '{"session_id":', "true"]);
      recipe.push(`replace:${JSON.stringify(whole)}`);
      return Buffer.from(whole);
    }
    default:
      recipe.push(`garbage@${at}`);
      return splice(Array.from({ length: 1 + rng.int(64) }, () => rng.int(256)));
  }
}
