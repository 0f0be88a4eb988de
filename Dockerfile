# The durable-agent worker image, built by the `worker` service in docker-compose.yml.
#
# The worker runs the TypeScript sources through tsx, exactly as `npm run worker` does; tsx is a
# runtime dependency, so a production install (`--omit=dev`) has everything the worker needs.
FROM node:20-bookworm-slim

ENV NODE_ENV=production
WORKDIR /app

# Dependencies first, so editing src/ does not invalidate this layer. Install scripts are skipped:
# the native parts (Temporal's core bridge, @swc/core, esbuild) ship prebuilt in platform packages,
# and our own dev machines install without running scripts too.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

COPY tsconfig.json ./
COPY src ./src

# The workspace volume's mount point and the audit log's folder. Created here, owned by the
# unprivileged `node` user that the base image provides, so Docker initialises the volume with that
# owner and the worker can write both.
RUN mkdir -p /workspace /var/lib/durable-agent \
  && chown node:node /workspace /var/lib/durable-agent

# The base image's `node` user, by number so runAsNonRoot-style checks can verify it.
USER 1000:1000
ENV AGENT_WORKSPACE=/workspace

# `npm run worker` without the npm process in between, so SIGTERM reaches the worker directly.
CMD ["node_modules/.bin/tsx", "src/worker.ts"]
