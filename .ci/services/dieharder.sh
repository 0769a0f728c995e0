# Sourced by .ci/run: installs Debian's dieharder so tests/integrity/test_rng.py runs it on
# `croupier rng-test --raw` output. Idempotent.
if ! command -v dieharder >/dev/null 2>&1; then
  apt-get update -qq && apt-get install -y -qq dieharder >/dev/null
fi
