# The durable-agent worker image, built by the `worker` service in docker-compose.yml.
#
# Two stages: the first compiles src/ into dist/ exactly as `npm run build` (and `npm pack`) does, with
# the dev dependencies; the second holds the production dependencies and the compiled JavaScript only,
# so the worker runs on plain `node`, with no TypeScript loader in the image.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build.js ./scripts/build.js
COPY src ./src
RUN npm run build

FROM node:20-bookworm-slim

ENV NODE_ENV=production
WORKDIR /app

# Dependencies first, so editing src/ does not invalidate this layer. Install scripts are skipped:
# the native parts (Temporal's core bridge, @swc/core, esbuild) ship prebuilt in platform packages,
# and our own dev machines install without running scripts too.
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts && npm cache clean --force

COPY --from=build /app/dist ./dist

# The workspace volume's mount point and the audit log's folder. Created here, owned by the
# unprivileged `node` user that the base image provides, so Docker initialises the volume with that
# owner and the worker can write both.
RUN mkdir -p /workspace /var/lib/durable-agent \
  && chown node:node /workspace /var/lib/durable-agent

# The base image's `node` user, by number so runAsNonRoot-style checks can verify it.
USER 1000:1000
ENV AGENT_WORKSPACE=/workspace

# The compiled form of `npm run worker` (src/worker.ts), without npm in between, so SIGTERM reaches
# the worker directly.
CMD ["node", "dist/worker.js"]
