# shellcheck shell=bash
# Debian packages the tests use, in one apt transaction (sourced first by .ci/run, as root):
# PostgreSQL (service tests), Chromium (browser tests), dieharder (RNG battery). Idempotent.
croupier_missing=()
command -v pg_ctlcluster >/dev/null 2>&1 && ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1 \
  || croupier_missing+=(postgresql)
[ -x /usr/bin/chromium ] || croupier_missing+=(chromium)
command -v dieharder >/dev/null 2>&1 || croupier_missing+=(dieharder)
if [ ${#croupier_missing[@]} -gt 0 ]; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${croupier_missing[@]}" >/dev/null
fi
unset croupier_missing
