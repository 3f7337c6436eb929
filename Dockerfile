# syntax=docker/dockerfile:1
# Vigil's one image: every role (api, projector, timer, checker, notifier) and the CLI run from it,
# `docker compose` builds it once (docker-compose.yml). By hand: docker build -t vigil .
ARG NODE_IMAGE=node:20.20.2-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /app
# better-sqlite3 compiles its native module when no prebuilt binary fits the platform.
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY projections ./projections
RUN npm run build && npm prune --omit=dev --no-audit --no-fund

FROM ${NODE_IMAGE} AS runtime
# tini is PID 1: it passes SIGTERM on (Vigil drains and lets its leases go) and reaps the
# processes `vigil exec` starts.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    VIGIL_DATA_DIR=/data \
    PORT=8080
WORKDIR /app
# Production dependencies only, built in the stage above on the same base image (same Node ABI).
COPY --from=build /app/package.json ./
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY docker/entrypoint.sh docker/healthcheck.mjs ./docker/
# The embedded store (when no server URLs are set) and its key live here, owned by the user Vigil runs as.
RUN mkdir /data && chown node:node /data
USER node
EXPOSE 8080
ENTRYPOINT ["tini", "--", "docker/entrypoint.sh", "node", "dist/src/main/cli.js"]
CMD ["serve"]
