/**
 * Writes the mod API's declarations of a Claude Code binary where the client itself lays them
 * beside a mod: `<plugin>/.claude-plugin/types/claude-code/index.d.ts`, so `tsc -p <plugin>` checks
 * ctx's mod against that client. The declarations ride in the binary as zstd frames near its end.
 *
 *   bun scripts/plugin-types.ts <claude binary> <plugin folder>
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const HEAD = new TextEncoder().encode("// Claude Code function hooks");
const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];

/** The declarations packed in the client binary `bin`, or undefined when it has none (a client without mods). */
export async function clientDeclarations(bin: string): Promise<string | undefined> {
  const bytes = await Bun.file(bin).bytes();
  const from = Math.floor(bytes.length * 0.9); // the embedded assets sit at the end
  const starts: number[] = [];
  for (let i = bytes.indexOf(MAGIC[0]!, from); i >= 0; i = bytes.indexOf(MAGIC[0]!, i + 1))
    if (bytes[i + 1] === MAGIC[1] && bytes[i + 2] === MAGIC[2] && bytes[i + 3] === MAGIC[3]) starts.push(i);
  for (const [n, at] of starts.entries()) {
    const end = frameEnd(bytes, at, Math.min(starts[n + 1] ?? bytes.length, at + 8_000_000));
    if (end === undefined) continue;
    let out: Uint8Array;
    try {
      out = Bun.zstdDecompressSync(bytes.subarray(at, end));
    } catch {
      continue;
    }
    if (HEAD.every((b, k) => out[k] === b)) return new TextDecoder().decode(out);
  }
  return undefined;
}

/** Where the zstd frame starting at `at` ends (RFC 8878 frame and block headers), or undefined past `limit`. */
function frameEnd(b: Uint8Array, at: number, limit: number): number | undefined {
  const fhd = b[at + 4]!;
  const single = (fhd >> 5) & 1;
  const fcs = [single ? 1 : 0, 2, 4, 8][fhd >> 6]!;
  let pos = at + 5 + (single ? 0 : 1) + [0, 1, 2, 4][fhd & 3]! + fcs;
  for (;;) {
    if (pos + 3 > limit) return undefined;
    const h = b[pos]! | (b[pos + 1]! << 8) | (b[pos + 2]! << 16);
    const type = (h >> 1) & 3;
    if (type === 3) return undefined;
    pos += 3 + (type === 1 ? 1 : h >>> 3);
    if (h & 1) return pos + ((fhd >> 2) & 1 ? 4 : 0);
  }
}

/** Lays the declarations of `bin` in `plugin`'s `.claude-plugin/types/`; returns the file written. */
export async function layTypes(bin: string, plugin: string): Promise<string> {
  const dts = await clientDeclarations(bin);
  if (!dts) throw new Error(`${bin}: no mod declarations found`);
  const dir = join(plugin, ".claude-plugin", "types", "claude-code");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "index.d.ts");
  writeFileSync(file, dts);
  return file;
}

if (import.meta.main) {
  const [bin, plugin] = Bun.argv.slice(2);
  if (!bin || !plugin) throw new Error("usage: bun scripts/plugin-types.ts <claude binary> <plugin folder>");
  console.log(await layTypes(bin, plugin));
}
