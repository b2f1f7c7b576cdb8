/**
 * The few synchronous file calls the hooks' hot path needs. On Linux with
 * glibc they go straight to libc through bun:ffi, because loading node:fs
 * costs a hook 1-2 ms at start-up (a quarter of its run); elsewhere, or with
 * CTX_NO_FFI=1, they fall back to node:fs, loaded only then.
 */
import { ffiSys } from "./sys-ffi.ts";
import { nodeSys } from "./sys-node.ts";
import type { Sys } from "./sys-types.ts";

export type { Stat, Sys } from "./sys-types.ts";
export { SysError } from "./sys-types.ts";

let chosen: Sys | undefined;

/** The system calls in use (chosen on first use). */
export function sys(): Sys {
  chosen ??= pick();
  return chosen;
}

/** Removes a file, ignoring every error. */
export function unlinkQuiet(path: string): void {
  try {
    sys().unlink(path);
  } catch {
    // already gone, or not ours to remove
  }
}

/** Closes a descriptor, ignoring errors. */
export function closeQuiet(fd: number): void {
  try {
    sys().close(fd);
  } catch {
    // nothing useful to do
  }
}

// --- internal ---

function pick(): Sys {
  if (process.platform === "linux" && !Bun.env.CTX_NO_FFI) {
    try {
      return ffiSys();
    } catch {
      // no glibc (musl, a sandbox without dlopen): fall through
    }
  }
  return nodeSys();
}
