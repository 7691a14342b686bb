#!/usr/bin/env bash
# Make a local PostgreSQL usable for tests and print its URL on stdout.
# Installs the server if missing (Debian packages), starts the cluster, sets a password for
# the `postgres` role, and creates the database named by $1 (default dn_test) afresh.
# Usage: export DN_TEST_PG_URL=$(scripts/pg-up.sh [DBNAME])
set -eu
db=${1:-dn_test}
pw=${PGPASSWORD_TEST:-dn}
log() { printf '%s\n' "$*" >&2; }
if ! command -v pg_ctlcluster >/dev/null 2>&1 || [ -z "$(ls /etc/postgresql 2>/dev/null)" ]; then
  log "installing postgresql"
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql) >&2
fi
ver=$(ls /etc/postgresql | sort -V | tail -1)
if ! pg_lsclusters -h | awk -v v="$ver" '$1==v && $2=="main" && $4=="online"' | grep -q .; then
  log "starting postgresql $ver"
  pg_ctlcluster --skip-systemctl-redirect "$ver" main start >&2
fi
for _ in $(seq 1 30); do pg_isready -q -h 127.0.0.1 -p 5432 && break; sleep 1; done
su postgres -c "psql -q -v ON_ERROR_STOP=1 -c \"ALTER ROLE postgres PASSWORD '$pw'\"" >&2
su postgres -c "psql -q -c 'DROP DATABASE IF EXISTS \"$db\" WITH (FORCE)' -c 'CREATE DATABASE \"$db\"'" >&2
echo "postgres://postgres:$pw@127.0.0.1:5432/$db"
