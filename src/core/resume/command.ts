/** The claude command line `ctx resume` runs. Pure. */

/**
 * claude's argv (without the binary): the pass-through arguments, then `--`,
 * then the prompt. The `--` matters: claude's variadic options such as
 * `--allowedTools Bash Write` would otherwise swallow the prompt. With `-p`
 * in the pass-through the prompt is the headless prompt; without, it is the
 * interactive session's first message.
 */
export function claudeArgs(passthrough: readonly string[], prompt: string): string[] {
  return passthrough.includes("--") ? [...passthrough, prompt] : [...passthrough, "--", prompt];
}
