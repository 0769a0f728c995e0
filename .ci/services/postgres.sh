# shellcheck shell=bash
# PostgreSQL for the service tests: install Debian's package, start the cluster, create the
# role and database, export CROUPIER_TEST_POSTGRES_URL. Sourced by .ci/run as root; idempotent.
croupier_pg_setup() {
  local user=croupier password=croupier db=croupier_test port version
  if ! command -v pg_ctlcluster >/dev/null 2>&1 || ! ls /usr/lib/postgresql/*/bin/postgres >/dev/null 2>&1; then
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null
  fi
  version=$(ls /usr/lib/postgresql | sort -V | tail -n 1)
  if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main"' | grep -q .; then
    pg_createcluster "$version" main >/dev/null
  fi
  if ! pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" && $4 == "online"' | grep -q .; then
    pg_ctlcluster "$version" main start
  fi
  port=$(pg_lsclusters -h | awk -v v="$version" '$1 == v && $2 == "main" {print $3}')
  su postgres -c "psql -q -p $port -tAc \"SELECT 1 FROM pg_roles WHERE rolname='$user'\"" | grep -q 1 \
    || su postgres -c "psql -q -p $port -c \"CREATE ROLE $user LOGIN CREATEDB PASSWORD '$password'\""
  su postgres -c "psql -q -p $port -tAc \"SELECT 1 FROM pg_database WHERE datname='$db'\"" | grep -q 1 \
    || su postgres -c "psql -q -p $port -c \"CREATE DATABASE $db OWNER $user\""
  export CROUPIER_TEST_POSTGRES_URL="postgresql+psycopg://$user:$password@127.0.0.1:$port/$db"
}
croupier_pg_setup
unset -f croupier_pg_setup
