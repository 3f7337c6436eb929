#!/bin/sh
# Reads each of these settings from the file its <NAME>_FILE names, when set (a compose or swarm
# secret under /run/secrets), so that secrets stay out of the environment `docker inspect` shows.
set -eu
for name in VIGIL_SECRET_KEY VIGIL_MONGODB_URL VIGIL_EVENTSTORE_URL VIGIL_METRICS_TOKEN VIGIL_SMTP_PASSWORD VIGIL_SELF_PING_URL VIGIL_OIDC_CLIENT_SECRET; do
  file=$(printenv "${name}_FILE" || true)
  [ -n "$file" ] || continue
  if [ -n "$(printenv "$name" || true)" ]; then
    echo "vigil: both $name and ${name}_FILE are set; set one" >&2
    exit 2
  fi
  [ -r "$file" ] || { echo "vigil: ${name}_FILE names $file, which cannot be read" >&2; exit 2; }
  value=$(cat "$file")
  export "$name=$value"
  unset "${name}_FILE"
done
exec "$@"
