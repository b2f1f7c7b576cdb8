/**
 * A fake Anthropic Messages API for driving the real Claude Code client offline.
 *
 * Main-loop requests (a non-empty `tools` array) consume the script's turns in
 * order; side requests (titles, … — no tools) get a short default reply unless
 * the script supplies a `side` handler.
 *
 * Compaction requests (`/compact`, auto-compact) DO carry the full `tools` array
 * in client 2.1.197, but their last user message holds the summary prompt
 * ("CRITICAL: Respond with TEXT ONLY…", "Your task is to create a detailed summary
 * of the conversation…"). They are classified as `kind: "compact"` (isMain false),
 * answered by `script.compact` or a default summary, and do NOT consume main turns.
 * See test/fixtures/README.md for what the client actually sends.
 */

/** A content block the fake model can emit. */
export type Block =
  | { type: "text"; text: string }
  | { type: "tool_use"; name: string; input: Record<string, unknown>; id?: string };

/** Usage reported in `message_start` (and `output_tokens` in `message_delta`). */
export interface Usage {
  input_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
  output_tokens?: number;
}

/** One scripted model reply. */
export interface Turn {
  content: Block[];
  usage?: Usage;
  /** Default: `tool_use` if any tool_use block, else `end_turn`. */
  stop_reason?: "end_turn" | "tool_use";
  /** Wait this long before answering (the client shows a busy spinner meanwhile). */
  delayMs?: number;
  /** Hold the request open until this settles (the test releases it), then answer. */
  hold?: Promise<unknown>;
  /** Answer with this API error instead (e.g. 400 `invalid_request_error`: the client does not retry it). */
  error?: { status: number; type: string; message: string; headers?: Record<string, string> };
}

/**
 * The subscription's usage limit as the API answers it (docs/clients.md, "Usage limits"): 429 with the
 * unified rate-limit headers, the five-hour window rejected until `resetUnixS`, no retry.
 */
export function usageLimitTurn(resetUnixS: number): Turn {
  const reset = String(resetUnixS);
  return {
    content: [],
    error: {
      status: 429,
      type: "rate_limit_error",
      message: "This request would exceed your account's rate limit. Please try again later.",
      headers: {
        "anthropic-ratelimit-unified-status": "rejected",
        "anthropic-ratelimit-unified-reset": reset,
        "anthropic-ratelimit-unified-representative-claim": "five_hour",
        "anthropic-ratelimit-unified-5h-status": "rejected",
        "anthropic-ratelimit-unified-5h-reset": reset,
        "anthropic-ratelimit-unified-5h-utilization": "1.0",
        "x-should-retry": "false",
      },
    },
  };
}

/** A request that reached the fake server. */
export interface LoggedRequest {
  method: string;
  /** Path including the query string, e.g. `/v1/messages?beta=true`. */
  path: string;
  /** A subset of headers: user-agent, anthropic-*, x-api-key, authorization, content-type. */
  headers: Record<string, string>;
  /** Parsed JSON body, or undefined for bodiless / non-JSON requests. */
  body: any;
  /** True for `POST /v1/messages` with a non-empty `tools` array that is not a compaction request. */
  isMain: boolean;
  /** main = tool loop; compact = compaction summary; side = other /v1/messages; other = probes, count_tokens, 404s. */
  kind: "main" | "side" | "compact" | "other";
  /** Index among requests of the same kind (0-based); -1 for `other`. */
  index: number;
}

/** Produces the reply for main request number `mainIndex`; undefined = default "done.". */
export type ScriptFn = (req: LoggedRequest, mainIndex: number) => Turn | undefined;

/** Full script: main turns plus an optional side-request handler and classifier. */
export interface ScriptObject {
  main: Turn[] | ScriptFn;
  /** Answers side requests; return undefined for the default short reply. */
  side?: (req: LoggedRequest, sideIndex: number) => Turn | undefined;
  /** Answers compaction requests; return undefined for the default summary. */
  compact?: (req: LoggedRequest, compactIndex: number) => Turn | undefined;
  /** Override main classification (default: non-empty `tools` and not a compaction request). */
  isMain?: (body: any) => boolean;
}

/** What `startFakeApi` accepts. */
export type Script = Turn[] | ScriptFn | ScriptObject;

/** A running fake API server. */
export interface FakeApi {
  url: string;
  port: number;
  /** Every request received, in order. */
  requests: LoggedRequest[];
  /** Only the `POST /v1/messages` main-loop requests. */
  mainRequests(): LoggedRequest[];
  /** Only the `POST /v1/messages` side requests (no tools). */
  sideRequests(): LoggedRequest[];
  /** Only the compaction requests. */
  compactRequests(): LoggedRequest[];
  stop(): Promise<void>;
}

const DEFAULT_DONE: Turn = {
  content: [{ type: "text", text: "done." }],
  usage: { input_tokens: 100, output_tokens: 5 },
};
const DEFAULT_COMPACT: Turn = {
  content: [
    {
      type: "text",
      text: "<summary>\n1. Primary Request and Intent:\n   The user ran a scripted e2e session.\n</summary>",
    },
  ],
  usage: { input_tokens: 200, output_tokens: 40 },
};
const DEFAULT_SIDE: Turn = {
  content: [{ type: "text", text: "Side reply" }],
  usage: { input_tokens: 20, output_tokens: 3 },
};

const HEADER_KEEP = /^(user-agent|anthropic-.*|x-api-key|authorization|content-type|x-app)$/i;

let idCounter = 0;
const newId = (prefix: string): string =>
  `${prefix}_${Date.now().toString(36)}${(++idCounter).toString(36).padStart(6, "0")}`;

const COMPACT_MARKER = /CRITICAL: Respond with TEXT ONLY|Your task is to create a detailed summary of the conversation/;

/** True when a /v1/messages body is a compaction (summary) request. */
export function isCompactBody(body: any): boolean {
  const msgs: any[] = Array.isArray(body?.messages) ? body.messages : [];
  // 2.1.332 may append its own `role: system` message after the user message that asks for the summary
  const last = msgs.findLast((m) => m?.role !== "system");
  return last?.role === "user" && COMPACT_MARKER.test(contentText(last.content));
}

function defaultIsMain(body: any): boolean {
  return Array.isArray(body?.tools) && body.tools.length > 0 && !isCompactBody(body);
}

/** Normalises a Turn into API content blocks (tool_use ids filled in) and stop reason. */
function materialise(turn: Turn): { blocks: any[]; stop: string; usage: Required<Usage> } {
  const blocks = turn.content.map((b) =>
    b.type === "text"
      ? { type: "text", text: b.text }
      : { type: "tool_use", id: b.id ?? newId("toolu"), name: b.name, input: b.input },
  );
  const stop = turn.stop_reason ?? (blocks.some((b) => b.type === "tool_use") ? "tool_use" : "end_turn");
  const u = turn.usage ?? { input_tokens: 100 };
  const usage = {
    input_tokens: u.input_tokens,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
    cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
    output_tokens: u.output_tokens ?? 10,
  };
  return { blocks, stop, usage };
}

function sse(event: string, data: unknown): string {
  return `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

/** Builds the full SSE body for one reply. */
export function sseBody(turn: Turn, model: string): string {
  const { blocks, stop, usage } = materialise(turn);
  const { output_tokens, ...startUsage } = usage;
  let out = sse("message_start", {
    type: "message_start",
    message: {
      id: newId("msg"),
      type: "message",
      role: "assistant",
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { ...startUsage, output_tokens: 1 },
    },
  });
  blocks.forEach((b, index) => {
    if (b.type === "text") {
      out += sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "text", text: "" },
      });
      out += sse("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "text_delta", text: b.text },
      });
    } else {
      out += sse("content_block_start", {
        type: "content_block_start",
        index,
        content_block: { type: "tool_use", id: b.id, name: b.name, input: {} },
      });
      out += sse("content_block_delta", {
        type: "content_block_delta",
        index,
        delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) },
      });
    }
    out += sse("content_block_stop", { type: "content_block_stop", index });
  });
  out += sse("message_delta", {
    type: "message_delta",
    delta: { stop_reason: stop, stop_sequence: null },
    usage: { output_tokens },
  });
  out += sse("message_stop", { type: "message_stop" });
  return out;
}

/** Builds a non-streaming JSON message for one reply. */
export function jsonMessage(turn: Turn, model: string): unknown {
  const { blocks, stop, usage } = materialise(turn);
  return {
    id: newId("msg"),
    type: "message",
    role: "assistant",
    model,
    content: blocks,
    stop_reason: stop,
    stop_sequence: null,
    usage,
  };
}

/** Starts the fake API on 127.0.0.1 with a random port. */
export async function startFakeApi(script: Script): Promise<FakeApi> {
  const obj: ScriptObject = Array.isArray(script) || typeof script === "function" ? { main: script } : script;
  const isMain = obj.isMain ?? defaultIsMain;
  const requests: LoggedRequest[] = [];
  let mainCount = 0;
  let sideCount = 0;
  let compactCount = 0;

  const nextMain = (req: LoggedRequest): Turn => {
    const i = mainCount++;
    req.index = i;
    const t = typeof obj.main === "function" ? obj.main(req, i) : obj.main[i];
    return t ?? DEFAULT_DONE;
  };
  const nextSide = (req: LoggedRequest): Turn => {
    const i = sideCount++;
    req.index = i;
    return obj.side?.(req, i) ?? DEFAULT_SIDE;
  };
  const nextCompact = (req: LoggedRequest): Turn => {
    const i = compactCount++;
    req.index = i;
    return obj.compact?.(req, i) ?? DEFAULT_COMPACT;
  };

  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    idleTimeout: 0,
    async fetch(r) {
      const u = new URL(r.url);
      const headers: Record<string, string> = {};
      r.headers.forEach((v, k) => {
        if (HEADER_KEEP.test(k)) headers[k] = v;
      });
      let body: any;
      const raw = r.method === "GET" || r.method === "HEAD" ? "" : await r.text();
      if (raw) {
        try {
          body = JSON.parse(raw);
        } catch {
          body = raw;
        }
      }
      const isMessages = r.method === "POST" && u.pathname === "/v1/messages";
      const main = isMessages && isMain(body);
      const kind = !isMessages ? "other" : main ? "main" : isCompactBody(body) ? "compact" : "side";
      const req: LoggedRequest = {
        method: r.method,
        path: u.pathname + u.search,
        headers,
        body,
        isMain: main,
        kind,
        index: -1,
      };
      requests.push(req);

      if ((r.method === "HEAD" || r.method === "GET") && u.pathname === "/")
        return new Response(r.method === "HEAD" ? null : "ok");
      if (r.method === "POST" && u.pathname === "/v1/messages/count_tokens") {
        return Response.json({ input_tokens: Math.max(1, Math.ceil(raw.length / 4)) });
      }
      if (!isMessages) {
        return Response.json(
          { type: "error", error: { type: "not_found_error", message: `no route ${r.method} ${u.pathname}` } },
          { status: 404 },
        );
      }
      const turn = kind === "main" ? nextMain(req) : kind === "compact" ? nextCompact(req) : nextSide(req);
      if (turn.hold) await turn.hold.catch(() => {});
      if (turn.delayMs) await Bun.sleep(turn.delayMs);
      if (turn.error)
        return Response.json(
          { type: "error", error: { type: turn.error.type, message: turn.error.message } },
          { status: turn.error.status, headers: turn.error.headers ?? {} },
        );
      const model = typeof body?.model === "string" ? body.model : "claude-sonnet-4-5";
      const reqId = newId("req");
      if (body?.stream) {
        return new Response(sseBody(turn, model), {
          headers: { "content-type": "text/event-stream", "cache-control": "no-cache", "request-id": reqId },
        });
      }
      return Response.json(jsonMessage(turn, model), { headers: { "request-id": reqId } });
    },
  });

  return {
    url: `http://127.0.0.1:${server.port}`,
    port: server.port as number,
    requests,
    mainRequests: () => requests.filter((q) => q.isMain),
    sideRequests: () => requests.filter((q) => q.kind === "side"),
    compactRequests: () => requests.filter((q) => q.kind === "compact"),
    stop: async () => {
      await server.stop(true);
    },
  };
}

/** Text of one content value (string or block array), including tool_result contents. */
export function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((b: any) => {
      if (b?.type === "text") return String(b.text ?? "");
      if (b?.type === "tool_result") return contentText(b.content);
      if (b?.type === "tool_use") return JSON.stringify(b.input ?? {});
      return "";
    })
    .filter((s) => s !== "")
    .join("\n");
}

/** All text of the last user message of a request (text blocks and tool_result contents). */
export function lastUserText(req: LoggedRequest): string {
  const msgs: any[] = Array.isArray(req.body?.messages) ? req.body.messages : [];
  for (let i = msgs.length - 1; i >= 0; i--) if (msgs[i]?.role === "user") return contentText(msgs[i].content);
  return "";
}

/** All text of a request: system prompt plus every message. */
export function allText(req: LoggedRequest): string {
  const sys = req.body?.system;
  const msgs: any[] = Array.isArray(req.body?.messages) ? req.body.messages : [];
  return [contentText(sys), ...msgs.map((m) => contentText(m?.content))].join("\n");
}

/** The tool_result blocks of the last user message. */
export function lastToolResults(req: LoggedRequest): Array<{ tool_use_id: string; is_error?: boolean; text: string }> {
  const msgs: any[] = Array.isArray(req.body?.messages) ? req.body.messages : [];
  const last = [...msgs].reverse().find((m) => m?.role === "user");
  if (!last || !Array.isArray(last.content)) return [];
  return last.content
    .filter((b: any) => b?.type === "tool_result")
    .map((b: any) => ({ tool_use_id: b.tool_use_id, is_error: b.is_error, text: contentText(b.content) }));
}

/** The usage of a reply whose context holds `tokens` in all: 100 input tokens, the rest read from the cache; 20 out. */
export function contextUsage(tokens: number): Required<Omit<Usage, "cache_creation_input_tokens">> {
  return { input_tokens: 100, cache_read_input_tokens: tokens - 100, output_tokens: 20 };
}

/** A reply calling the tool `name` with `input`, the context at `tokens` ({@link contextUsage}). */
export function toolTurn(name: string, input: Record<string, unknown>, tokens: number): Turn {
  return { content: [{ type: "tool_use", name, input }], usage: contextUsage(tokens) };
}

/** A reply running `command` in the Bash tool (described as "step"), the context at `tokens`. */
export function bashTurn(command: string, tokens: number): Turn {
  return toolTurn("Bash", { command, description: "step" }, tokens);
}

/** A text reply, the context at `tokens` ({@link contextUsage}). */
export function textTurn(text: string, tokens: number): Turn {
  return { content: [{ type: "text", text }], usage: contextUsage(tokens) };
}

/** How many answers of the model a request carries: 0 for a conversation's first request. */
export function modelSteps(req: LoggedRequest): number {
  const msgs: any[] = Array.isArray(req.body?.messages) ? req.body.messages : [];
  return msgs.filter((m) => m?.role === "assistant").length;
}

/** True when the request's first message holds `marker`: a subagent's requests start with the prompt it was given. */
export function startsWithPrompt(req: LoggedRequest, marker: string): boolean {
  return contentText(req.body?.messages?.[0]?.content).includes(marker);
}
