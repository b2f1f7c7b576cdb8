/** The client's task lists on disk: `~/.claude/tasks/<list id>/<n>.json` (CLAUDE_CONFIG_DIR honoured). */
import { join } from "node:path";
import { homeDir } from "../../core/paths.ts";
import type { TaskListState } from "../../core/resume/prompt.ts";
import { isValidTaskId } from "../../core/track/stamp.ts";
import type { Env } from "../../core/deps.ts";
import { listDir } from "../fs/list-dir.ts";

/** The directory of a task list, or undefined for an unsafe id. */
export function taskListDir(env: Env, listId: string): string | undefined {
  if (!isValidTaskId(listId)) return undefined;
  const base = env.CLAUDE_CONFIG_DIR?.startsWith("/") ? env.CLAUDE_CONFIG_DIR : join(homeDir(env), ".claude");
  return join(base, "tasks", listId);
}

/**
 * What a session started with `env` finds in its task list: `kept` when
 * CLAUDE_CODE_TASK_LIST_ID names a list that already has tasks (the client
 * keeps it across /clear), else `recreate` (a /clear without it starts empty).
 */
export function taskListState(env: Env): TaskListState {
  const dir = taskListDir(env, env.CLAUDE_CODE_TASK_LIST_ID ?? "");
  if (!dir) return "recreate";
  return listDir(dir).some((n) => /^\w+\.json$/.test(n)) ? "kept" : "recreate";
}
