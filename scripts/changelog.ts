/**
 * Reads CHANGELOG.md (Keep a Changelog: `## [Unreleased]`, then `## [x.y.z] - YYYY-MM-DD`, newest first).
 * `bun scripts/changelog.ts notes <version>` prints that version's section (the release notes; exit 1 if there is
 * none); `bun scripts/changelog.ts latest` prints the newest released version.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";

/** One `## [name] - date` section: name is a version or `Unreleased`; date is empty for Unreleased. */
export interface ChangelogSection {
  name: string;
  date: string;
  body: string;
}

/** The `## [...]` sections of `text`, in file order. The reference links at the end belong to no section. */
export function parseChangelog(text: string): ChangelogSection[] {
  const sections: ChangelogSection[] = [];
  let current: { name: string; date: string; lines: string[] } | undefined;
  const close = (): void => {
    if (current) sections.push({ name: current.name, date: current.date, body: current.lines.join("\n").trim() });
  };
  for (const line of text.split("\n")) {
    const heading = /^## \[([^\]]+)\](?:\s+-\s+(\d{4}-\d{2}-\d{2}))?\s*$/.exec(line);
    if (heading) {
      close();
      current = { name: heading[1]!, date: heading[2] ?? "", lines: [] };
    } else if (/^## /.test(line) || /^\[[^\]]+\]:\s/.test(line)) {
      close();
      current = undefined;
    } else current?.lines.push(line);
  }
  close();
  return sections;
}

/** The newest released version (the first section that is not Unreleased), or undefined. */
export function latestRelease(text: string): ChangelogSection | undefined {
  return parseChangelog(text).find((s) => s.name !== "Unreleased");
}

/** The section of `version` (a leading `v` is ignored), or undefined. */
export function releaseNotes(text: string, version: string): ChangelogSection | undefined {
  const want = version.replace(/^v/, "");
  return parseChangelog(text).find((s) => s.name === want);
}

if (import.meta.main) {
  const [cmd, arg] = Bun.argv.slice(2);
  const text = readFileSync(join(import.meta.dir, "..", "CHANGELOG.md"), "utf8");
  if (cmd === "latest") {
    const latest = latestRelease(text);
    if (!latest) {
      console.error("changelog: CHANGELOG.md has no released version");
      process.exit(1);
    }
    console.log(latest.name);
  } else if (cmd === "notes" && arg) {
    const section = releaseNotes(text, arg);
    if (!section || !section.date || !section.body) {
      console.error(
        `changelog: CHANGELOG.md has no dated, non-empty section '## [${arg.replace(/^v/, "")}] - YYYY-MM-DD'`,
      );
      process.exit(1);
    }
    console.log(section.body);
  } else {
    console.error("Usage: bun scripts/changelog.ts notes <version> | latest");
    process.exit(2);
  }
}
