/**
 * Tiny tmpfs mounts for the hostile-filesystem tests (we run as root in CI).
 * `canMount` is probed once; where mounting is not permitted the tests that
 * need it are skipped with a message saying so.
 */
import { mkdirSync, mkdtempSync, rmdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** True when this process may mount a tmpfs. */
export const canMount: boolean = probe();

if (!canMount)
  console.warn("hardening: mount -t tmpfs is not permitted here: the read-only and full-disk tests are SKIPPED");

/** Mounts a tmpfs of `sizeKb` at `dir` (created if needed). */
export function mountTmpfs(dir: string, sizeKb: number): void {
  mkdirSync(dir, { recursive: true });
  run(["mount", "-t", "tmpfs", "-o", `size=${sizeKb}k,mode=0755`, "tmpfs", dir]);
}

/** Remounts `dir` read-only. */
export function remountReadOnly(dir: string): void {
  run(["mount", "-o", "remount,ro", dir]);
}

/** Unmounts `dir` (lazily, so a straggling process cannot keep it busy). */
export function unmount(dir: string): void {
  Bun.spawnSync(["umount", "-l", dir]);
}

/** Fills the filesystem at `dir` until it is full. */
export function fillUp(dir: string): void {
  Bun.spawnSync(["dd", "if=/dev/zero", `of=${join(dir, "filler")}`, "bs=4k"], { stderr: "ignore" });
  // and the last inodes / blocks with small files
  for (let i = 0; i < 64; i++)
    Bun.spawnSync(["sh", "-c", `head -c 512 /dev/zero > ${join(dir, `f${i}`)}`], { stderr: "ignore" });
}

// --- internal ---

function run(argv: string[]): void {
  const r = Bun.spawnSync(argv, { stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`${argv.join(" ")}: ${r.stderr.toString()}`);
}

function probe(): boolean {
  const dir = mkdtempSync(join(tmpdir(), "ctx-mount-probe-"));
  try {
    const ok =
      Bun.spawnSync(["mount", "-t", "tmpfs", "-o", "size=16k", "tmpfs", dir], { stderr: "ignore" }).exitCode === 0;
    if (ok) Bun.spawnSync(["umount", dir]);
    return ok;
  } catch {
    return false;
  } finally {
    rmdirSync(dir);
  }
}
