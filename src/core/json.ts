/** Narrowing of parsed JSON. */

/** True when `value` is a plain JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** `value` when it is a plain JSON object, else undefined (a `parse` for readState). */
export function asObject(value: unknown): Record<string, unknown> | undefined {
  return isObject(value) ? value : undefined;
}

/** The plain JSON object `text` holds, or undefined when it does not parse or holds anything else. */
export function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    return asObject(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/** `value` when it is a plain JSON object, else an empty one: its fields read as absent. */
export function fieldsOf(value: unknown): Record<string, unknown> {
  return isObject(value) ? value : {};
}
