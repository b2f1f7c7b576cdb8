/**
 * A fake Gemini API (generativelanguage `v1beta`) for driving the real Gemini CLI offline
 * (`GOOGLE_GEMINI_BASE_URL=http://127.0.0.1:<port>`, see docs/clients.md, "Gemini CLI").
 *
 * Main requests are `POST /v1beta/models/<model>:streamGenerateContent?alt=sse`; the reply is
 * SSE `data: {json}` events (one chunk per part, usage on the last). The script's turn is chosen
 * by the number of `functionResponse` parts in the request (turn 0 answers the prompt, turn n
 * the request carrying n tool results), so the CLI's helper calls never shift a script.
 * `:generateContent` (JSON mode, used by the model router and helpers) gets a minimal reply.
 */

/** A part the fake model can emit: text, or a tool call. */
export type GeminiPart = { text: string } | { functionCall: { name: string; args: Record<string, unknown> } };

/** One scripted model reply. */
export interface GeminiTurn {
  parts: GeminiPart[];
  /** `promptTokenCount`: what the chat log records as `tokens.input` (default 1000). */
  promptTokens?: number;
  /** `candidatesTokenCount` (default 10). */
  outputTokens?: number;
  /** Wait this long before answering. */
  delayMs?: number;
}

/** A request that reached the fake server. */
export interface GeminiRequest {
  method: string;
  /** Path including the query string. */
  path: string;
  /** Parsed JSON body, or undefined. */
  body: any;
  /** stream = `:streamGenerateContent`; generate = `:generateContent`; other = anything else. */
  kind: "stream" | "generate" | "other";
  /** The script turn used (stream requests), else -1. */
  turn: number;
  /** Position among the stream requests (0-based), else -1. */
  index: number;
}

/**
 * Produces the reply to a stream request (`turn` = functionResponse parts in it; after a
 * compression, when the history shrank, a function can use `req.index` instead); undefined = "done.".
 */
export type GeminiScript = GeminiTurn[] | ((req: GeminiRequest, turn: number) => GeminiTurn | undefined);

/** A running fake Gemini API. */
export interface FakeGemini {
  url: string;
  /** Every request received, in order. */
  requests: GeminiRequest[];
  /** Only the streaming (main-loop) requests. */
  streamRequests(): GeminiRequest[];
  stop(): Promise<void>;
}

const DONE: GeminiTurn = { parts: [{ text: "done." }], promptTokens: 1000 };
/** What the fake summarizer answers when the client compresses its history. */
export const SNAPSHOT = "<state_snapshot>FAKE-SNAPSHOT: the scripted work so far.</state_snapshot>";

/** The number of `functionResponse` parts in a request's contents. */
export function functionResponses(body: any): number {
  let n = 0;
  for (const c of Array.isArray(body?.contents) ? body.contents : [])
    for (const p of Array.isArray(c?.parts) ? c.parts : []) if (p?.functionResponse) n += 1;
  return n;
}

/** All text of a request's contents: text parts and function responses (as JSON). */
export function requestText(body: any): string {
  const out: string[] = [];
  for (const c of Array.isArray(body?.contents) ? body.contents : [])
    for (const p of Array.isArray(c?.parts) ? c.parts : []) {
      if (typeof p?.text === "string") out.push(p.text);
      if (p?.functionResponse) out.push(JSON.stringify(p.functionResponse.response ?? {}));
    }
  return out.join("\n");
}

/** The text of the newest function response of a request (what the model sees of the last tool). */
export function lastFunctionResponse(body: any): string {
  const contents: any[] = Array.isArray(body?.contents) ? body.contents : [];
  for (let i = contents.length - 1; i >= 0; i--) {
    const parts: any[] = Array.isArray(contents[i]?.parts) ? contents[i].parts : [];
    for (let j = parts.length - 1; j >= 0; j--)
      if (parts[j]?.functionResponse) return JSON.stringify(parts[j].functionResponse.response ?? {});
  }
  return "";
}

/** The text of the first user content of a request (the prompt as the model sees it). */
export function firstUserText(body: any): string {
  const first = (Array.isArray(body?.contents) ? body.contents : []).find((c: any) => c?.role === "user");
  return (Array.isArray(first?.parts) ? first.parts : [])
    .map((p: any) => (typeof p?.text === "string" ? p.text : ""))
    .join("\n");
}

/** One reply chunk per part; usage only on the last one, as the real API sends it. */
export function sseChunks(turn: GeminiTurn, model: string): string {
  const input = turn.promptTokens ?? 1000;
  const output = turn.outputTokens ?? 10;
  const parts = turn.parts.length ? turn.parts : [{ text: "" }];
  return parts
    .map((part, i) => {
      const last = i === parts.length - 1;
      const chunk: Record<string, unknown> = {
        candidates: [
          { content: { role: "model", parts: [part] }, index: 0, ...(last ? { finishReason: "STOP" } : {}) },
        ],
        modelVersion: model,
        responseId: `fake-${Date.now().toString(36)}-${i}`,
      };
      if (last)
        chunk.usageMetadata = {
          promptTokenCount: input,
          candidatesTokenCount: output,
          totalTokenCount: input + output,
        };
      return `data: ${JSON.stringify(chunk)}\r\n\r\n`;
    })
    .join("");
}

/** Starts the fake Gemini API on 127.0.0.1 with a random port. */
export async function startFakeGemini(script: GeminiScript): Promise<FakeGemini> {
  const requests: GeminiRequest[] = [];
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
      const m = /^\/v1beta\/models\/([^/:]+):(streamGenerateContent|generateContent|countTokens)$/.exec(u.pathname);
      const kind = m?.[2] === "streamGenerateContent" ? "stream" : m?.[2] === "generateContent" ? "generate" : "other";
      const req: GeminiRequest = { method: r.method, path: u.pathname + u.search, body, kind, turn: -1, index: -1 };
      if (kind === "stream") req.index = requests.filter((q) => q.kind === "stream").length;
      requests.push(req);
      const model = m?.[1] ?? "gemini-2.5-flash";
      if (m?.[2] === "countTokens") return Response.json({ totalTokens: Math.ceil(raw.length / 4) });
      if (kind === "generate") {
        // The compressor asks for a <state_snapshot>; other helpers (router, next-speaker check, …)
        // get a JSON reply that fills the usual schemas.
        const text = requestText(body).includes("state_snapshot")
          ? SNAPSHOT
          : JSON.stringify({ reasoning: "fake", next_speaker: "user", model_choice: "flash" });
        return Response.json({
          candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
          usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 },
          modelVersion: model,
        });
      }
      if (kind !== "stream")
        return Response.json(
          { error: { code: 404, message: `no route ${u.pathname}`, status: "NOT_FOUND" } },
          {
            status: 404,
          },
        );
      const turn = functionResponses(body);
      req.turn = turn;
      const reply = (typeof script === "function" ? script(req, turn) : script[turn]) ?? DONE;
      if (reply.delayMs) await Bun.sleep(reply.delayMs);
      return new Response(sseChunks(reply, model), {
        headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
      });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    streamRequests: () => requests.filter((q) => q.kind === "stream"),
    stop: async () => {
      await server.stop(true);
    },
  };
}
