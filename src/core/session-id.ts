/** Session ids become file names, so only this alphabet is ever accepted. */
const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** True when `id` is safe to build a path from. */
export function isValidSessionId(id: unknown): id is string {
  return typeof id === "string" && SESSION_ID.test(id);
}
