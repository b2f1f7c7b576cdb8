#!/bin/sh
# Installs ctx, one binary, into ${CTX_INSTALL_DIR:-~/.local/bin}.
#
#   curl -fsSL https://raw.githubusercontent.com/ctx-dev/ctx/main/install.sh | sh
#   sh install.sh --hooks            # inside a checkout: build from source, install, wire Claude Code
#
# Options:
#   --version V        install release V (default: the latest)
#   --binary FILE      install a local ctx binary
#   --from-source      build from the checkout with the pinned bun only (npm install bun@<pinned>
#                      into ~/.cache/ctx, unless node_modules has it); the default inside a
#                      checkout unless --version, CTX_RELEASE_BASE or CTX_RELEASE_URL is given
#   --hooks            run `ctx install` at the end (Claude Code hooks and statusLine)
#   --modify-path      add the install dir to PATH in the shell profile without asking
#   --no-modify-path   never touch shell profiles (the default when there is no terminal to ask on)
# Environment:
#   CTX_RELEASE_BASE   the releases URL, laid out like GitHub's (…/latest/download/, …/download/v<V>/);
#                      default https://github.com/ctx-dev/ctx/releases
#   CTX_RELEASE_URL    where the archives and SHA256SUMS are (a plain directory URL; wins over CTX_RELEASE_BASE)
#   CTX_INSTALL_DIR    where ctx goes (default ~/.local/bin)
#   CTX_INSTALL_OS, CTX_INSTALL_ARCH  override detection (e.g. linux, x64-baseline)
set -eu

RELEASE_BASE="${CTX_RELEASE_BASE:-https://github.com/ctx-dev/ctx/releases}"
RELEASE_BASE="${RELEASE_BASE%/}"
INSTALL_DIR="${CTX_INSTALL_DIR:-$HOME/.local/bin}"
case "$INSTALL_DIR" in /*) ;; *) INSTALL_DIR="$(pwd)/$INSTALL_DIR" ;; esac # messages name absolute paths
version="" binary="" from_source="" hooks="" modify_path=ask

say() { printf 'ctx-install: %s\n' "$*" >&2; }
# The help text lives here, not only in the header: piped into sh, "$0" is not this file.
usage() {
  cat <<'EOF'
Installs ctx, one binary, into ${CTX_INSTALL_DIR:-~/.local/bin}.

Usage: install.sh [--version V] [--binary FILE] [--from-source] [--hooks] [--[no-]modify-path]
  --version V        install release V (default: the latest)
  --binary FILE      install a local ctx binary
  --from-source      build from the checkout with the pinned bun only (the default inside one)
  --hooks            run `ctx install` at the end (Claude Code hooks and statusLine)
  --modify-path      add the install dir to PATH in the shell profile without asking
  --no-modify-path   never touch shell profiles (the default without a terminal to ask on)
Environment: CTX_RELEASE_BASE (releases URL laid out like GitHub's, default
https://github.com/ctx-dev/ctx/releases), CTX_RELEASE_URL (one directory with the
archives and SHA256SUMS), CTX_INSTALL_DIR, CTX_INSTALL_OS and CTX_INSTALL_ARCH
(override detection).
EOF
}
die() { say "error: $*"; exit 1; }

while [ $# -gt 0 ]; do
  case "$1" in
    --version) [ $# -ge 2 ] || die "--version needs a value"; version="${2#v}"; shift 2 ;;
    --version=*) version="${1#--version=}"; version="${version#v}"; shift ;;
    --binary) [ $# -ge 2 ] || die "--binary needs a file"; binary="$2"; shift 2 ;;
    --binary=*) binary="${1#--binary=}"; shift ;;
    --from-source) from_source=1; shift ;;
    --hooks) hooks=1; shift ;;
    --no-modify-path) modify_path=0; shift ;;
    --modify-path) modify_path=1; shift ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown option '$1' (see --help)" ;;
  esac
done

tmp_base=${TMPDIR:-/tmp}
[ -d "$tmp_base" ] && [ -w "$tmp_base" ] || tmp_base=/tmp
tmp=$(mktemp -d "$tmp_base/ctx-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# --- where we are -----------------------------------------------------------

# A checkout: this script sits next to ctx's package.json and build.ts.
checkout=""
case "$0" in */install.sh|install.sh) [ -f "$0" ] && checkout=$(cd "$(dirname "$0")" && pwd) ;; esac
if [ -n "$checkout" ] && { [ ! -f "$checkout/build.ts" ] || ! grep -q '"name": "ctx"' "$checkout/package.json" 2>/dev/null; }; then
  checkout=""
fi
if [ -z "$from_source" ] && [ -z "$binary" ] && [ -z "$version" ] && [ -z "${CTX_RELEASE_URL:-}" ] &&
  [ -z "${CTX_RELEASE_BASE:-}" ] && [ -n "$checkout" ]; then
  from_source=1
fi

detect_os() {
  os="${CTX_INSTALL_OS:-$(uname -s)}"
  case "$os" in
    Linux|linux) echo linux ;;
    Darwin|darwin) echo darwin ;;
    *) die "unsupported operating system '$os': builds exist for Linux and macOS; try --from-source" ;;
  esac
}

# x64, x64-baseline (no AVX2), x64-musl or arm64.
detect_arch() {
  arch="${CTX_INSTALL_ARCH:-$(uname -m)}"
  case "$arch" in
    x64|x64-baseline|x64-musl|arm64) echo "$arch"; return ;;
    x86_64|amd64) arch=x64 ;;
    aarch64|arm64) arch=arm64 ;;
    *) die "unsupported CPU architecture '$arch': builds exist for x86_64 and arm64 (Linux, macOS); try --from-source" ;;
  esac
  if [ "$1" = darwin ] && [ "$arch" = x64 ] && [ "$(sysctl -n sysctl.proc_translated 2>/dev/null || echo 0)" = 1 ]; then
    arch=arm64 # Rosetta: use the native build
  fi
  if [ "$1" = linux ]; then
    if ls /lib/ld-musl-* >/dev/null 2>&1 || ldd --version 2>&1 | grep -qi musl; then
      [ "$arch" = x64 ] || die "no musl build for $arch; try --from-source"
      arch=x64-musl
    elif [ "$arch" = x64 ] && [ -r /proc/cpuinfo ] && ! grep -qw avx2 /proc/cpuinfo; then
      arch=x64-baseline
    fi
  fi
  echo "$arch"
}

# --- helpers ----------------------------------------------------------------

# WHY (a missing release) only when the server answered; a host that cannot be reached says so.
offline_hint="no network? install offline with --binary FILE or --from-source"
fetch() { # fetch URL FILE [WHY]: WHY says what an answer of the server (404) most likely means
  host=$(printf '%s\n' "$1" | sed -n 's|^[a-z]*://\([^/:]*\).*|\1|p')
  if command -v curl >/dev/null 2>&1; then
    rc=0; curl -fsSL --retry 2 -o "$2" "$1" || rc=$?
    case $rc in
      0) ;;
      5|6) die "cannot reach $host: its name does not resolve (DNS, curl exit $rc); $offline_hint" ;;
      7|28|35|52|56) die "cannot reach $host (curl exit $rc: no connection); $offline_hint" ;;
      *) die "download failed: $1${3:+ ($3)}" ;;
    esac
  elif command -v wget >/dev/null 2>&1; then
    rc=0; wget -q -O "$2" "$1" || rc=$?
    case $rc in
      0) ;;
      4) die "cannot reach $host (wget exit 4: network failure, DNS included); $offline_hint" ;;
      *) die "download failed: $1${3:+ ($3)}" ;;
    esac
  else
    die "neither curl nor wget is installed: install one of them, or use --binary FILE / --from-source"
  fi
}

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then shasum -a 256 "$1" | cut -d' ' -f1
  elif command -v openssl >/dev/null 2>&1; then openssl dgst -sha256 "$1" | sed 's/.*= *//'
  else die "no sha256sum, shasum or openssl to verify the download"
  fi
}

installed_version() { "$INSTALL_DIR/ctx" --version 2>/dev/null | sed -n 's/^ctx //p' || true; }

# Copies FILE next to the target and renames it over: the old ctx keeps working until the switch.
install_binary() {
  case "$1" in /*) ;; *) set -- "$(pwd)/$1" ;; esac  # a bare name would be looked up on PATH
  "$1" --version 2>/dev/null | grep -q '^ctx [0-9]' || die "$1 is not a ctx binary ('$1 --version' does not print 'ctx <version>')"
  mkdir -p "$INSTALL_DIR"
  cp "$1" "$INSTALL_DIR/.ctx.new.$$"
  chmod 755 "$INSTALL_DIR/.ctx.new.$$"
  mv -f "$INSTALL_DIR/.ctx.new.$$" "$INSTALL_DIR/ctx"
  say "installed $("$INSTALL_DIR/ctx" --version) to $INSTALL_DIR/ctx"
}

# --- the three sources ------------------------------------------------------

# The bun version package.json pins (devDependencies.bun), e.g. 1.4.5.
pinned_bun() {
  sed -n 's/^ *"bun": *"[^0-9]*\([0-9][0-9.]*\)".*/\1/p' "$checkout/package.json" | head -n 1
}

# Building needs only bun: a development checkout's own (node_modules/.bin/bun, at the pinned
# version) is used as it is; otherwise npm installs just bun@<pinned> into a private prefix,
# ${XDG_CACHE_HOME:-~/.cache}/ctx/bun-<version>, never the test-only devDependencies
# (the Claude Code and Gemini CLI clients) and never into the checkout.
build_bun() {
  want=$(pinned_bun)
  [ -n "$want" ] || die "package.json pins no bun version (devDependencies.bun)"
  if [ -x "$checkout/node_modules/.bin/bun" ] && [ "$("$checkout/node_modules/.bin/bun" --version 2>/dev/null)" = "$want" ]; then
    echo "$checkout/node_modules/.bin/bun"; return
  fi
  prefix="${XDG_CACHE_HOME:-$HOME/.cache}/ctx/bun-$want"
  if [ ! -x "$prefix/node_modules/.bin/bun" ] || [ "$("$prefix/node_modules/.bin/bun" --version 2>/dev/null)" != "$want" ]; then
    command -v npm >/dev/null 2>&1 || die "--from-source needs npm (Node.js) to fetch bun $want"
    say "npm install bun@$want into $prefix (only what the build needs)"
    mkdir -p "$prefix"
    # npm's own notices (npm 11 warns about allowScripts) would land in the middle of the install's
    # lines: its output is kept aside and shown only when it fails.
    npm_log="$tmp/npm.log"
    if ! npm install --prefix "$prefix" --no-save --no-package-lock --no-audit --no-fund --loglevel=error "bun@$want" >"$npm_log" 2>&1; then
      cat "$npm_log" >&2
      die "npm could not install bun@$want"
    fi
  fi
  [ -x "$prefix/node_modules/.bin/bun" ] || die "no bun in $prefix after npm install"
  echo "$prefix/node_modules/.bin/bun"
}

build_from_source() {
  [ -n "$checkout" ] || die "--from-source needs a ctx checkout (run install.sh from one)"
  bun=$(build_bun)
  say "building $checkout/dist/ctx with bun $("$bun" --version 2>/dev/null) ($bun)"
  (cd "$checkout" && "$bun" build.ts >&2) || die "the build failed"
  install_binary "$checkout/dist/ctx"
}

download_release() {
  os=$(detect_os)
  arch=$(detect_arch "$os")
  if [ -n "${CTX_RELEASE_URL:-}" ]; then base="${CTX_RELEASE_URL%/}"
  elif [ -n "$version" ]; then base="$RELEASE_BASE/download/v$version"
  else base="$RELEASE_BASE/latest/download"
  fi
  if [ -n "$version" ] && [ "$(installed_version)" = "$version" ]; then
    say "ctx $version is already installed in $INSTALL_DIR; nothing to do"; return
  fi
  fetch "$base/SHA256SUMS" "$tmp/SHA256SUMS" "no ctx release ${version:+v$version }there"
  # The archive for this platform, and the version it names (the last one listed).
  name=$(sed -n "s/^[0-9a-fA-F]\{64\}  *\*\{0,1\}\(ctx-[^ ]*-$os-$arch\.tar\.gz\)\$/\1/p" "$tmp/SHA256SUMS" |
    { if [ -n "$version" ]; then grep -Fx "ctx-$version-$os-$arch.tar.gz"; else tail -n 1; fi; } || true)
  [ -n "$name" ] || die "no ${version:+version $version }build for $os-$arch at $base"
  version=${name#ctx-}; version=${version%-"$os-$arch".tar.gz}
  if [ "$(installed_version)" = "$version" ]; then
    say "ctx $version is already installed in $INSTALL_DIR; nothing to do"; return
  fi
  say "downloading $name"
  fetch "$base/$name" "$tmp/$name" "SHA256SUMS lists $name but the release does not hold it"
  expected=$(awk -v n="$name" '$2 == n || $2 == "*" n { print $1; exit }' "$tmp/SHA256SUMS")
  actual=$(sha256 "$tmp/$name")
  if [ "$expected" != "$actual" ]; then
    die "checksum mismatch for $name (expected $expected, got $actual): refusing to install"
  fi
  mkdir "$tmp/x"
  tar -xzf "$tmp/$name" -C "$tmp/x"
  [ -f "$tmp/x/ctx" ] || die "$name holds no ctx binary"
  install_binary "$tmp/x/ctx"
}

# --- PATH -------------------------------------------------------------------

offer_path() {
  case ":$PATH:" in *":$INSTALL_DIR:"*) return ;; esac
  line="export PATH=\"$INSTALL_DIR:\$PATH\""
  case "${SHELL:-}" in
    */zsh) profile="$HOME/.zshrc" ;;
    */bash) profile="$HOME/.bashrc" ;;
    */fish) profile="$HOME/.config/fish/config.fish"; line="fish_add_path \"$INSTALL_DIR\"" ;;
    *) profile="$HOME/.profile" ;;
  esac
  if [ "$modify_path" = 0 ]; then
    say "$INSTALL_DIR is not on PATH; add it with: $line"; return
  fi
  if [ -f "$profile" ] && grep -Fqx "$line" "$profile"; then
    say "$INSTALL_DIR is in $profile; open a new shell to use ctx"; return
  fi
  if [ "$modify_path" = ask ]; then
    # Only a person at a terminal is asked; a script or CI run never gets its profile edited unasked.
    if ! { [ -t 1 ] && [ -r /dev/tty ] && (: </dev/tty) 2>/dev/null; }; then
      say "$INSTALL_DIR is not on PATH; add it with: $line (or rerun with --modify-path)"; return
    fi
    printf 'Add %s to PATH in %s? [Y/n] ' "$INSTALL_DIR" "$profile" >&2
    read -r answer </dev/tty || answer=n
    case "$answer" in [nN]*) say "skipped; add it yourself: $line"; return ;; esac
  fi
  mkdir -p "$(dirname "$profile")"
  printf '\n# added by ctx install.sh\n%s\n' "$line" >>"$profile"
  say "added $INSTALL_DIR to PATH in $profile; open a new shell (or run: $line)"
}

# --- main -------------------------------------------------------------------

if [ -n "$binary" ]; then
  [ -f "$binary" ] || die "--binary: no such file '$binary'"
  install_binary "$binary"
elif [ -n "$from_source" ]; then
  build_from_source
else
  download_release
fi
offer_path
if [ -n "$hooks" ]; then
  "$INSTALL_DIR/ctx" install
fi
