/**
 * A fake OpenAI Responses API for driving the real Codex CLI (`@openai/codex` 0.169.0) offline
 * (`[model_providers.fake] base_url = "http://127.0.0.1:<port>/v1"`, see docs/clients.md).
 *
 * Codex POSTs `/v1/responses` (JSON, `stream: true`); the reply is SSE: `response.created`, one
 * `response.output_item.done` per item, `response.completed` with `usage`. The header
 * `x-codex-turn-metadata` says the request's kind (`turn`, `compaction`, `prewarm`). A turn of the
 * script is chosen by the number of `function_call_output` items in the request, so side requests
 * never shift it.
 */

/** One scripted model reply: a shell command to run, or a final text. */
export interface CodexTurn {
  /** Run this through `exec_command`. */
  cmd?: string;
  /** Apply this patch through the `apply_patch` custom tool (`*** Begin Patch` … `*** End Patch`). */
  patch?: string;
  /** Answer with this text (ends the turn). */
  text?: string;
  /** `usage.input_tokens` of the reply: what the rollout's token_count reports (default 1000). */
  inputTokens?: number;
}

/** A request that reached the fake server. */
export interface CodexRequest {
  path: string;
  body: any;
  /** `request_kind` of `x-codex-turn-metadata` (`turn`, `compaction`, `prewarm`), or "" when absent. */
  kind: string;
  /** The script turn used, else -1. */
  turn: number;
}

/** Produces the reply to a main request (`turn` = function_call_output items in it); undefined = "done.". */
export type CodexScript = CodexTurn[] | ((req: CodexRequest, turn: number) => CodexTurn | undefined);

/** A running fake Responses API. */
export interface FakeCodex {
  /** The provider's base URL (ends in `/v1`). */
  url: string;
  requests: CodexRequest[];
  /** The requests of the model's turns (not compaction, prewarm or title requests). */
  turnRequests(): CodexRequest[];
  stop(): Promise<void>;
}

/** The number of tool outputs (`function_call_output`, `custom_tool_call_output`) in a request's input. */
export function callOutputs(body: any): number {
  return (Array.isArray(body?.input) ? body.input : []).filter(
    (i: any) => i?.type === "function_call_output" || i?.type === "custom_tool_call_output",
  ).length;
}

/** The texts of the `developer` messages of a request (where Codex puts hook context), in order. */
export function developerTexts(body: any): string[] {
  return messages(body, "developer");
}

/** The texts of the `user` messages of a request, in order. */
export function userTexts(body: any): string[] {
  return messages(body, "user");
}

/** Every text in a request's input. */
export function inputText(body: any): string {
  return JSON.stringify(body?.input ?? []);
}

function messages(body: any, role: string): string[] {
  const out: string[] = [];
  for (const item of Array.isArray(body?.input) ? body.input : []) {
    if (item?.type !== "message" || item.role !== role) continue;
    const content = Array.isArray(item.content) ? item.content : [];
    out.push(content.map((c: any) => (typeof c?.text === "string" ? c.text : "")).join("\n"));
  }
  return out;
}

function sse(event: string, data: Record<string, unknown>): string {
  return `event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`;
}

let seq = 0;

/** The SSE body of one reply. */
export function replyBody(turn: CodexTurn, model: string): string {
  const id = `resp_fake_${++seq}`;
  const items: Record<string, unknown>[] = [];
  if (turn.cmd !== undefined)
    items.push({
      type: "function_call",
      id: `fc_${seq}`,
      call_id: `call_fake_${seq}`,
      name: "exec_command",
      arguments: JSON.stringify({ cmd: turn.cmd }),
    });
  else if (turn.patch !== undefined)
    items.push({
      type: "custom_tool_call",
      id: `ctc_${seq}`,
      call_id: `call_fake_${seq}`,
      name: "apply_patch",
      input: turn.patch,
    });
  else
    items.push({
      type: "message",
      id: `msg_${seq}`,
      role: "assistant",
      content: [{ type: "output_text", text: turn.text ?? "done.", annotations: [] }],
    });
  const input = turn.inputTokens ?? 1000;
  const usage = {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 10,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + 10,
  };
  return [
    sse("response.created", { response: { id, model } }),
    ...items.map((item, i) => sse("response.output_item.done", { output_index: i, item })),
    sse("response.completed", { response: { id, model, usage, output: items } }),
  ].join("");
}

/**
 * Starts the fake Responses API on 127.0.0.1 with a random port. A compaction request is answered with
 * a summary and `compactionTokens` input tokens (default 5,000; a real one carries the whole history).
 */
export async function startFakeCodex(script: CodexScript, compactionTokens = 5000): Promise<FakeCodex> {
  const requests: CodexRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(r) {
      const u = new URL(r.url);
      const raw = r.method === "POST" ? await r.text() : "";
      let body: any;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = raw;
      }
      let kind = "";
      try {
        kind = String(JSON.parse(r.headers.get("x-codex-turn-metadata") ?? "{}").request_kind ?? "");
      } catch {
        // no metadata
      }
      const req: CodexRequest = { path: u.pathname, body, kind, turn: -1 };
      requests.push(req);
      if (!u.pathname.endsWith("/responses")) return Response.json({ data: [], models: [] });
      const model = typeof body?.model === "string" ? body.model : "gpt-5.5";
      let reply: CodexTurn;
      if (kind === "compaction")
        reply = { text: "FAKE-COMPACTION-SUMMARY of the work so far.", inputTokens: compactionTokens };
      else if (JSON.stringify(body?.text ?? {}).includes('"title"')) reply = { text: '{"title":"fake"}' };
      else {
        req.turn = callOutputs(body);
        reply = (typeof script === "function" ? script(req, req.turn) : script[req.turn]) ?? { text: "done." };
      }
      return new Response(replyBody(reply, model), {
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests,
    turnRequests: () => requests.filter((q) => q.turn >= 0),
    stop: async () => {
      await server.stop(true);
    },
  };
}
