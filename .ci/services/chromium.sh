# shellcheck shell=bash
# Chromium for the browser-table tests (tests/web, Playwright driving Debian's chromium at
# /usr/bin/chromium; `playwright install` is never used). Sourced by .ci/run as root; idempotent.
if [ ! -x /usr/bin/chromium ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
fi
