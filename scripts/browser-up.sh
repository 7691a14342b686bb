#!/usr/bin/env bash
# Make Debian's chromium usable for the browser tests (test/apiDocsPage.test.ts,
# driven by playwright-core, which downloads no browser) and print its path on stdout.
# Idempotent: prints the path when it is there; installs it (Debian packages) when
# missing and run as root; otherwise prints the apt command to run and exits 1.
# Usage: export DN_CHROMIUM_PATH=$(scripts/browser-up.sh)
set -eu
bin=${DN_CHROMIUM_PATH:-/usr/bin/chromium}
log() { printf '%s\n' "$*" >&2; }
if [ -x "$bin" ]; then
  echo "$bin"
  exit 0
fi
cmd="apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium"
if [ "$(id -u)" -ne 0 ]; then
  log "chromium is missing at $bin; install it as root with:"
  log "  sudo sh -c '$cmd'"
  exit 1
fi
log "installing chromium (Debian package, about a minute)"
started=$(date +%s)
out=$(mktemp)
trap 'rm -f "$out"' EXIT
if ! sh -c "$cmd" >"$out" 2>&1; then
  tail -n 40 "$out" >&2
  log "installing chromium failed"
  exit 1
fi
log "chromium installed in $(($(date +%s) - started)) s"
if [ ! -x "$bin" ]; then
  log "chromium is installed but $bin is missing; set DN_CHROMIUM_PATH"
  exit 1
fi
echo "$bin"
