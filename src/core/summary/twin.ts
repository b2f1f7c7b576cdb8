/** Reading a summary's twin (`summary-<task>-<stamp>.json`) back: every field checked, nothing trusted. Pure. */
import { asObject } from "../json.ts";
import { type ChainTask, MAX_SESSIONS, type SummaryTwin } from "./chain.ts";
import { parseTracker } from "./tracker.ts";
import { cleanTwin } from "./inert.ts";
import { isValidSessionId } from "../session-id.ts";
import { isValidTaskId } from "../track/stamp.ts";

/** The machine-readable twin of a summary: the same name with `.json`. */
export function twinPathOf(summaryPath: string): string {
  return summaryPath.replace(/\.md$/, ".json");
}

/**
 * A twin read back from disk, or undefined when it is not one. Fields are checked, not trusted: a
 * twin can be planted, so every text is made one clean line and invalid ids are dropped (cleanTwin).
 */
export function parseTwin(value: unknown): SummaryTwin | undefined {
  const v = asObject(value);
  if (!v || v.version !== 1 || !isValidTaskId(v.task_id) || !isValidSessionId(v.session_id)) return undefined;
  const strs = (x: unknown) => (Array.isArray(x) ? x.filter((s): s is string => typeof s === "string") : []);
  const objs = (x: unknown) => (Array.isArray(x) ? x.flatMap((o) => (asObject(o) ? [asObject(o)!] : [])) : []);
  const s = (x: unknown) => (typeof x === "string" ? x : "");
  const n = (x: unknown) => (Number.isSafeInteger(x) && (x as number) >= 0 ? (x as number) : 0);
  const lines = (x: unknown) =>
    Array.isArray(x) ? x.filter((n): n is number => Number.isSafeInteger(n) && n > 0).slice(-20) : [];
  const withLines = (o: Record<string, unknown>) => (Array.isArray(o.evidence) ? { evidence: lines(o.evidence) } : {});
  const ev = (x: unknown) => {
    const o = asObject(x);
    return o ? { session: n(o.session), lines: lines(o.lines) } : undefined;
  };
  const task = (o: Record<string, unknown>): ChainTask => ({
    id: s(o.id),
    subject: s(o.subject),
    status: s(o.status) || "pending",
    list: s(o.list),
    ...withLines(o),
  });
  const hist = asObject(v.errors_history);
  const cont = asObject(v.continues);
  const evid = asObject(v.evidence);
  const step = asObject(v.last_step);
  return cleanTwin({
    version: 1,
    task_id: v.task_id,
    session_id: v.session_id,
    sessions: strs(v.sessions).slice(-MAX_SESSIONS),
    sessions_dropped: n(v.sessions_dropped),
    goal: typeof v.goal === "string" ? v.goal : null,
    latest_request: typeof v.latest_request === "string" ? v.latest_request : null,
    latest_answers: typeof v.latest_answers === "string" ? v.latest_answers : null,
    latest_follows: typeof v.latest_follows === "string" ? v.latest_follows : null,
    open_tasks: objs(v.open_tasks)
      .map(task)
      .filter((t) => t.subject !== ""),
    completed_tasks: objs(v.completed_tasks)
      .map(task)
      .filter((t) => t.subject !== ""),
    files: objs(v.files).map((o) => ({
      path: s(o.path),
      ops: s(o.ops),
      session: n(o.session),
      ...(typeof o.from === "string" && o.from ? { from: o.from } : {}),
      ...(o.deleted === true ? { deleted: true } : {}),
      ...withLines(o),
    })),
    files_dropped: n(v.files_dropped),
    errors: objs(v.errors).map((o) => ({
      tool: s(o.tool),
      target: s(o.target),
      message: s(o.message),
      key: s(o.key),
      session: n(o.session),
      ...withLines(o),
    })),
    decisions: strs(v.decisions).slice(-3),
    last_step: step && typeof step.text === "string" ? { text: step.text, session: n(step.session) } : null,
    tracker: parseTracker(v.tracker),
    written_at: s(v.written_at),
    ...(cont
      ? {
          continues: {
            kind: s(cont.kind),
            line: n(cont.line),
            transcript: typeof cont.transcript === "string" ? cont.transcript : null,
            at_hand: cont.at_hand === true,
          },
        }
      : {}),
    ...(hist
      ? { errors_history: { count: n(hist.count), evidence: lines(hist.evidence), session: n(hist.session) } }
      : {}),
    ...(Array.isArray(v.open_work)
      ? {
          open_work: objs(v.open_work).map((o) => ({
            text: s(o.text),
            evidence: lines(o.evidence),
            session: n(o.session),
          })),
        }
      : {}),
    ...(evid
      ? {
          evidence: Object.fromEntries(
            [
              ["goal", ev(evid.goal)],
              ["latest_request", ev(evid.latest_request)],
              ["last_step", ev(evid.last_step)],
              ["latest_answers", ev(evid.latest_answers)],
              ["tracker", ev(evid.tracker)],
              [
                "commands",
                Array.isArray(evid.commands)
                  ? evid.commands.slice(-40).map((d) => ev(d) ?? { session: 0, lines: [] })
                  : undefined,
              ],
              [
                "decisions",
                Array.isArray(evid.decisions)
                  ? evid.decisions.map((d) => ev(d) ?? { session: 0, lines: [] })
                  : undefined,
              ],
            ].filter(([, x]) => x !== undefined),
          ),
        }
      : {}),
  });
}
