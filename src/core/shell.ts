/** Quoting for a POSIX shell: the settings' hook commands and the command `ctx resume --dry-run` shows. Pure. */

/**
 * `word` as one shell word: as it is when it holds only characters a shell leaves alone
 * (a `~` only past the first character, where it is never expanded), else in single quotes.
 */
export function shellQuote(word: string): string {
  return /^[A-Za-z0-9_/.+:@%=,-][A-Za-z0-9_/.+:@%=,~-]*$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line a shell splits back into `argv`. */
export function shellLine(argv: readonly string[]): string {
  return argv.map(shellQuote).join(" ");
}
