import { afterEach, beforeEach } from "bun:test";
import { tempDir } from "./tmp.ts";

/** A fresh temp directory for each test of the file (`.dir`), removed after it. */
export function tempDirEach(prefix?: string): { readonly dir: string } {
  let current: ReturnType<typeof tempDir> | undefined;
  beforeEach(() => {
    current = tempDir(prefix);
  });
  afterEach(() => current?.cleanup());
  return {
    get dir(): string {
      if (!current) throw new Error("tempDirEach: used outside a test");
      return current.dir;
    },
  };
}
