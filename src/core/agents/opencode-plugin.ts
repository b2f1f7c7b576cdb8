/**
 * The plugin `ctx install --opencode` writes (V1 plugin API of OpenCode 1.18.33). It runs under Bun
 * inside OpenCode and calls ctx with a typed payload (`client: "opencode"`, OpenCode's event name,
 * Claude Code's field names) only when something can change: once per new step's usage (before the
 * next request, so a warning reaches the model on that request), at a session's start, first prompt,
 * idle, compaction. The summary ctx gives at a session's start goes into its first message. In the
 * TUI it also carries out the cycle ctx decides at an idle (opencode-cycle.ts).
 */
import { OPENCODE_CYCLE_JS } from "./opencode-cycle.ts";
import type { PluginShape } from "./types.ts";

/** The first line of every plugin file ctx writes: uninstall and doctor touch only such a file. */
const MARKER = "// ctx plugin for OpenCode (ctx install --opencode; removed by ctx uninstall --opencode)";

/** What the plugin's code names first: Bun's spawn and OpenCode's process. */
const HEAD = `const { spawnSync } = Bun;
const proc = process;
`;

/** ctx's plugin file for OpenCode. */
export const openCodePlugin: PluginShape = {
  userDir: { env: "XDG_CONFIG_HOME", sub: "opencode/plugins", home: ".config" },
  projectDir: ".opencode/plugins",
  file: "ctx.js",
  marker: MARKER,
  text: (command) => `${MARKER}
const CTX = ${JSON.stringify(command)};
${HEAD}${OPENCODE_CYCLE_JS}${BODY}`,
};

// --- internal ---

/**
 * The plugin's code after the binary's name and the cycle's: plain JavaScript, as OpenCode loads it (data to ctx: it runs
 * only inside OpenCode, whose process and Bun it names once, at the top).
 */
const BODY = `const total = (t) => {
  if (!t) return 0;
  const c = t.cache || {};
  return t.total || (t.input || 0) + (t.output || 0) + (t.reasoning || 0) + (c.read || 0) + (c.write || 0);
};

export const CtxPlugin = async ({ directory, client }) => {
  const env = proc.env;
  const dataHome = env.XDG_DATA_HOME || (env.HOME || "") + "/.local/share";
  const db = env.OPENCODE_DB && env.OPENCODE_DB.startsWith("/") ? env.OPENCODE_DB : dataHome + "/opencode/opencode.db";
  const models = new Map(); // session -> { limit, model }, from chat.params
  const seen = new Map(); // session -> the step total ctx was last told
  const steps = new Map(); // session -> the newest step's tokens
  const summaries = new Map(); // session -> what ctx gave at its start, for its first message
  let current; // the session this process works in: a new one (/new) ends it for ctx
  const started = new Set(); // sessions ctx was told of
  const end = () => {
    if (current) call(["track"], "session.deleted", current, { reason: "other" });
    current = undefined;
  };
  proc.once("exit", end);
  const ask = (sub, event, sessionID, extra) => {
    if (!sessionID) return undefined;
    const m = models.get(sessionID) || {};
    const payload = {
      client: "opencode",
      hook_event_name: event,
      session_id: sessionID,
      cwd: directory,
      transcript_path: db + "#" + sessionID,
      ...(m.limit ? { limit: m.limit, model: m.model } : {}),
      ...extra,
    };
    try {
      const r = spawnSync([CTX, ...sub], {
        stdin: Buffer.from(JSON.stringify(payload)),
        stdout: "pipe",
        stderr: "ignore",
        timeout: 10000,
      });
      const out = (r.stdout || "").toString().trim().split("\\n").pop();
      return out ? JSON.parse(out) : undefined;
    } catch {
      return undefined;
    }
  };
  const call = (sub, event, sessionID, extra) => ask(sub, event, sessionID, extra)?.hookSpecificOutput?.additionalContext;
  const start = (id) => {
    if (started.has(id)) return;
    started.add(id);
    end();
    current = id;
    call(["track"], "session.created", id, { source: "startup" });
    const text = call(["resume", "--hook"], "session.created", id, { source: "startup" });
    if (text) summaries.set(id, text);
  };
  const cycle = ctxCycle({ client, ask, start, models, steps });
  const note = (sessionID, text, last) => {
    if (!text || !last) return;
    last.parts.push({ id: "prt_ctx" + String(proc.hrtime.bigint()), sessionID, messageID: last.info.id, type: "text", text, synthetic: true });
  };
  return {
    "chat.params": async (input) => {
      if (input.agent === "title" || input.agent === "compaction" || !input.model?.limit) return;
      const agent = typeof input.agent === "string" ? input.agent : input.agent?.name;
      models.set(input.sessionID, { limit: input.model.limit, model: input.model.id, provider: input.model.providerID, agent });
    },
    event: async ({ event }) => {
      const p = event.properties || {};
      cycle.event(event);
      if (event.type === "session.created" && p.info?.id && !p.info.parentID) start(p.info.id);
      else if (event.type === "message.updated" && p.info?.role === "assistant" && total(p.info.tokens) > 0) {
        steps.set(p.info.sessionID, p.info.tokens);
      } else if (event.type === "session.idle") {
        current = current || p.sessionID;
        call(["track"], "session.idle", p.sessionID, { tokens: steps.get(p.sessionID) });
      } else if (event.type === "session.compacted") {
        call(["track"], "session.compacted", p.sessionID, {});
      }
    },
    "chat.message": async (input, output) => {
      const text = summaries.get(input.sessionID);
      summaries.delete(input.sessionID);
      if (text && output.parts?.length) {
        // After the prompt's own part: an id it begins (OpenCode orders parts by id), never equal to it.
        const id = output.parts[0].id ? output.parts[0].id + "Z" : undefined;
        output.parts.push({ id, sessionID: input.sessionID, messageID: output.message.id, type: "text", text, synthetic: true });
      }
      const prompt = (output.parts || []).filter((x) => x.type === "text" && !x.synthetic).map((x) => x.text).join("\\n");
      call(["track"], "chat.message", input.sessionID, { prompt });
    },
    "experimental.chat.messages.transform": async (_input, output) => {
      const msgs = output.messages || [];
      const step = msgs.filter((m) => m.info.role === "assistant" && total(m.info.tokens) > 0).at(-1);
      const sid = step?.info.sessionID;
      if (!sid || seen.get(sid) === total(step.info.tokens) || !models.has(sid)) return;
      seen.set(sid, total(step.info.tokens));
      call(["track"], "chat.messages.transform", sid, { tokens: step.info.tokens });
      note(sid, call(["monitor"], "chat.messages.transform", sid, { tokens: step.info.tokens }), msgs.at(-1));
    },
    "experimental.session.compacting": async (input, output) => {
      call(["track"], "experimental.session.compacting", input.sessionID, { tokens: steps.get(input.sessionID) });
      cycle.compacting(input, output);
    },
    "experimental.text.complete": async (input, output) => cycle.text(input, output),
  };
};
`;
