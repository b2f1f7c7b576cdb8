/** An assistant transcript line as Claude Code writes it. */
export function assistantLine(
  used: number,
  extra: Record<string, unknown> = {},
  model = "claude-sonnet-4-5-20250929",
): string {
  return JSON.stringify({
    type: "assistant",
    isSidechain: false,
    message: {
      id: `msg_${used}`,
      model,
      role: "assistant",
      content: [{ type: "text", text: "ok" }],
      usage: {
        input_tokens: 10,
        cache_creation_input_tokens: 90,
        cache_read_input_tokens: used - 100,
        output_tokens: 999,
      },
    },
    ...extra,
  });
}
