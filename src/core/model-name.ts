/**
 * One model, one name: the API's dated ids (`claude-sonnet-4-5-20250929`) and Claude Code's
 * aliases (`claude-sonnet-4-5`) are the same model; people read the client's display name
 * (`Sonnet 4.5`, `Opus 4.8 (1M context)`). Pure.
 */

/** The model id without its date suffix: `claude-sonnet-4-5-20250929` → `claude-sonnet-4-5`. */
export function canonicalModel(id: string): string {
  return id.replace(/-(\d{8})(?=$|\[)/, "");
}

/**
 * The name Claude Code shows for a model id (`claude-sonnet-4-5` → `Sonnet 4.5`,
 * `claude-opus-4-8[1m]` → `Opus 4.8 (1M context)`, `claude-3-5-haiku-…` → `Haiku 3.5`);
 * any other id (Gemini, unknown) as it is, without a date suffix.
 */
export function modelDisplayName(id: string): string {
  const canon = canonicalModel(id.trim());
  const big = /\[1m\]$/i.test(canon) ? " (1M context)" : "";
  const bare = canon.replace(/\[1m\]$/i, "");
  const family = "(opus|sonnet|haiku)";
  const m =
    new RegExp(`^claude-${family}-(\\d+)(?:-(\\d{1,2}))?$`, "i").exec(bare) ??
    swap(new RegExp(`^claude-(\\d+)(?:-(\\d{1,2}))?-${family}$`, "i").exec(bare));
  if (!m) return canon;
  const name = m[1]!.charAt(0).toUpperCase() + m[1]!.slice(1).toLowerCase();
  return `${name} ${m[2]}${m[3] !== undefined ? `.${m[3]}` : ""}${big}`;
}

// --- internal ---

/** `claude-3-5-haiku`'s match reordered as family, major, minor. */
function swap(m: RegExpExecArray | null): RegExpExecArray | null {
  if (!m) return null;
  const out = [m[0], m[3], m[1], m[2]] as unknown as RegExpExecArray;
  return out;
}
