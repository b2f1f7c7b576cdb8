/**
 * The part of ctx's OpenCode plugin (opencode-plugin.ts) that carries out what ctx decides about a
 * session's context, inside OpenCode's TUI and with no keystroke (docs/opencode.md):
 * - the cycle (`respawn.in_client`): at a main session's idle, after a quiet moment, it reports
 *   what it sees to `ctx monitor` (`ModIdle`, the session's tokens and limit, `ctx_idle`), and does
 *   what ctx answers: a restart opens a new session (`session.create`), shows it in the TUI
 *   (`tui.session.select`) and sends it the continue prompt through the server (the summary goes
 *   in by the plugin's start-of-session injection); a compaction is `session.summarize` with ctx's
 *   instructions added to the compaction's context; then `ModCycleDone`;
 * - ctx's summary as OpenCode's compaction summary (`opencode.replace_compaction_summary`): at a
 *   compaction ctx answers `ModSummary` with its framed summary, which replaces the text of the
 *   compaction's summary part (`experimental.text.complete`).
 * It calls ctx only at a main session's idle with new tokens, at a compaction, and after a cycle.
 */

/** How long a session must stay idle before the plugin reports it (the Claude Code mod's quiet moment). */
export const OPENCODE_QUIET_MS = 1500;

/**
 * The plugin's cycle code: plain JavaScript defining `ctxCycle`, which the plugin's body calls
 * with its helpers (`ask` calls ctx and returns its parsed answer; `start` begins ctx's record of
 * a session and fetches its summary; `models`, `steps`: what the plugin knows of each session).
 */
export const OPENCODE_CYCLE_JS = `const QUIET_MS = ${OPENCODE_QUIET_MS};
const ctxCycle = ({ client, ask, start, models, steps }) => {
  // The TUI runs the server, and so the plugins, in its worker; \`opencode run\` has no TUI to cycle in.
  const tui = /\\/cli\\/tui\\/worker\\.js$/.test(proc.argv[1] || "");
  const kids = new Set(); // subagent sessions (a parent)
  const busyKids = new Set();
  const asking = new Map(); // session -> open permission or question requests
  const ends = new Map(); // session -> how its newest step ended
  const reported = new Map(); // session -> the step total of its last idle report
  const instructions = new Map(); // session -> ctx's compaction instructions
  const replace = new Map(); // session -> ctx's summary for the compaction under way
  let cycling = false;
  const ok = (r) => {
    if (r && r.error) throw new Error(JSON.stringify(r.error).slice(0, 200));
    return r;
  };
  const reason = (e) =>
    !e ? "unknown" : e.error ? (e.error.name === "MessageAbortedError" ? "interrupted" : "error") : e.finish === "tool-calls" ? "tool-calls" : "answer";
  const limited = (e) => {
    const d = (e && e.error && e.error.data) || {};
    return d.statusCode === 429 || /usage limit|rate limit/i.test(String(d.message || ""));
  };
  const count = (id, n) => id && asking.set(id, Math.max(0, (asking.get(id) || 0) + n));
  const idle = async (id) => {
    const status = await client.session.status().catch(() => undefined);
    const now = status && status.data && status.data[id] ? status.data[id].type : "idle";
    const facts = {
      turnReason: reason(ends.get(id)),
      draft: false, // OpenCode 1.18 shows a server plugin no prompt box: ctx never writes into it
      dialogOpen: (asking.get(id) || 0) > 0,
      queuedPrompt: now !== "idle",
      subagentsRunning: busyKids.size,
      limited: limited(ends.get(id)),
    };
    const answer = ask(["monitor"], "ModIdle", id, { tokens: steps.get(id), ctx_idle: facts, transcript_path: undefined });
    const order = answer && answer.ctx_cycle;
    if (!order) return;
    cycling = true;
    let to = id;
    try {
      const m = models.get(id) || {};
      const model = m.provider && m.model ? { providerID: m.provider, modelID: m.model } : undefined;
      if (order.kind === "compact") {
        instructions.set(id, order.instructions);
        ok(await client.session.summarize({ path: { id }, body: model || {} }));
      } else {
        const made = ok(await client.session.create({ body: {} }));
        to = made.data && made.data.id;
        if (!to) throw new Error("session.create gave no session");
        start(to);
        ok(await client.tui.publish({ body: { type: "tui.session.select", properties: { sessionID: to } } }));
        const body = { ...(model ? { model } : {}), ...(m.agent ? { agent: m.agent } : {}), parts: [{ type: "text", text: order.prompt }] };
        ok(await client.session.promptAsync({ path: { id: to }, body }));
      }
      ask(["monitor"], "ModCycleDone", to, { ctx_ok: true, transcript_path: undefined });
    } catch (err) {
      ask(["monitor"], "ModCycleDone", to, { ctx_ok: false, ctx_detail: String(err), transcript_path: undefined });
    } finally {
      cycling = false;
    }
  };
  return {
    event: (event) => {
      const p = event.properties || {};
      // A compaction that ended without its summary text (failed, aborted) leaves no text to replace.
      if (/^session\\.(compacted|idle|error)$/.test(event.type)) replace.delete(p.sessionID);
      if (event.type === "session.created" && p.info && p.info.parentID) kids.add(p.info.id);
      else if (event.type === "session.status" && kids.has(p.sessionID)) {
        if (p.status && p.status.type === "idle") busyKids.delete(p.sessionID);
        else busyKids.add(p.sessionID);
      } else if (event.type === "message.updated" && p.info && p.info.role === "assistant") {
        if (p.info.error || (p.info.time && p.info.time.completed))
          ends.set(p.info.sessionID, { finish: p.info.finish, error: p.info.error });
      } else if (/^(permission|question)\\.asked$/.test(event.type)) count(p.sessionID, 1);
      else if (/^(permission|question)\\.(replied|rejected)$/.test(event.type)) count(p.sessionID, -1);
      else if (event.type === "session.idle" && tui && !cycling && !kids.has(p.sessionID)) {
        const t = steps.get(p.sessionID);
        if (!t || reported.get(p.sessionID) === total(t)) return;
        reported.set(p.sessionID, total(t));
        setTimeout(() => idle(p.sessionID).catch(() => {}), QUIET_MS);
      }
    },
    compacting: (input, output) => {
      const more = instructions.get(input.sessionID);
      instructions.delete(input.sessionID);
      if (more && Array.isArray(output.context)) output.context.push(more);
      const answer = ask(["monitor"], "ModSummary", input.sessionID, { tokens: steps.get(input.sessionID), transcript_path: undefined });
      if (answer && typeof answer.ctx_summary === "string") replace.set(input.sessionID, answer.ctx_summary);
    },
    // The compaction's request has no tools and one text part: the first text done after it began is its summary.
    text: (input, output) => {
      const text = replace.get(input.sessionID);
      if (text === undefined) return;
      replace.delete(input.sessionID);
      output.text = text;
    },
  };
};
`;
