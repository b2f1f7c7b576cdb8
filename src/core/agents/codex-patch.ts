/**
 * The files a Codex CLI patch changed, wherever the patch was applied: the `apply_patch` tool,
 * an `exec_command` shell script that runs `apply_patch <<'EOF' … EOF` (optionally after
 * `cd DIR &&`, the two forms Codex itself recognises), or a code-mode `exec` script that calls
 * `tools.apply_patch(…)` with the patch in a JavaScript string. The grammar is Codex's own
 * (docs/track-finalize.md): `*** Add File: p`, `*** Update File: p` (with `*** Move to: q`),
 * `*** Delete File: p`. Pure.
 */

/** One file a patch touched. */
export interface PatchChange {
  op: "add" | "update" | "delete";
  path: string;
  /** The new path of an update with `*** Move to:`. */
  moveTo?: string;
}

/** At most this many patches read from one script. */
const MAX_PATCHES = 50;

/** The changes of one patch text (`*** Begin Patch` … `*** End Patch`), in order. */
export function patchChanges(patch: string): PatchChange[] {
  const out: PatchChange[] = [];
  for (const line of patch.split(/\r?\n/)) {
    const hunk = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (hunk) out.push({ op: hunk[1]!.toLowerCase() as PatchChange["op"], path: hunk[2]!.trim() });
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    const last = out.at(-1);
    if (move && last?.op === "update") last.moveTo = move[1]!.trim();
  }
  return out;
}

/**
 * The patches a script applies: an `exec_command` command that runs `apply_patch` (or
 * `applypatch`), or a code-mode `exec` script that calls `tools.apply_patch`. Relative paths
 * of a shell script that starts with `cd DIR &&` are taken from DIR. Empty for any other script.
 */
export function scriptPatches(script: string, kind: "shell" | "code"): PatchChange[] {
  const runs = kind === "shell" ? /\bapply_?patch\b/.test(script) : /\btools\s*\.\s*apply_patch\b/.test(script);
  if (!runs || !script.includes("*** Begin Patch")) return [];
  const dir = kind === "shell" ? /^\s*cd\s+(?:"([^"]+)"|'([^']+)'|(\S+))\s*&&/.exec(script) : null;
  const base = dir ? (dir[1] ?? dir[2] ?? dir[3]!) : "";
  const out: PatchChange[] = [];
  const bodies = script.split("*** Begin Patch").slice(1, MAX_PATCHES + 1);
  for (const raw of bodies) {
    const end = raw.indexOf("*** End Patch");
    let body = end >= 0 ? raw.slice(0, end) : raw;
    // In a JavaScript string literal the patch's lines are `\n` escapes, not line breaks.
    if (kind === "code" && !/\n\*\*\* /.test(body))
      body = body.replace(/(?:\\r)?\\n/g, "\n").replace(/\\(["'`\\])/g, "$1");
    for (const c of patchChanges(body)) out.push(base ? rebase(c, base) : c);
  }
  return out;
}

// --- internal ---

function rebase(c: PatchChange, base: string): PatchChange {
  const at = (p: string) => (p.startsWith("/") || base === "." ? p : `${base.replace(/\/+$/, "")}/${p}`);
  return { ...c, path: at(c.path), ...(c.moveTo ? { moveTo: at(c.moveTo) } : {}) };
}
