#!/usr/bin/env bash
# Makes deploy/secrets/db_password and deploy/secrets/db_url (a random password) for compose.yaml,
# unless they exist. The folder is open to its owner only; the files in it are readable, since
# compose mounts them as they are and the server runs as an unprivileged user in its container.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p secrets
chmod 700 secrets
if [ ! -s secrets/db_password ]; then
  umask 022
  python3 -c "import secrets; print(secrets.token_urlsafe(24), end='')" > secrets/db_password
  printf 'postgresql+psycopg://rednovember:%s@db:5432/rednovember' "$(cat secrets/db_password)" \
    > secrets/db_url
  echo "made deploy/secrets/db_password and deploy/secrets/db_url"
else
  echo "deploy/secrets already holds a password: nothing to do"
fi
