# One image for every role: ROLE=api or ROLE=worker (or all) chooses what a container runs.

# Build: every dependency, the console (vite) and the server bundle `npm start` runs (esbuild, one
# JavaScript file per entry: the server, the speech worker, the operator commands).
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# `image` names the build (scripts/server-bundle.mjs publishes it under an id of its own). A link, not
# a copy: each bundled module finds its source's paths (node_modules among them) relative to its build
# directory, which node resolves the link to.
RUN npx vite build \
 && npm run build:server \
 && ln -s "$(cat .build/server/current)" .build/server/image

FROM node:20-bookworm-slim
WORKDIR /app
# Debian's ffmpeg (5.1 on bookworm, with its security updates) decodes the uploads, not the 2018 static
# build of @ffmpeg-installer: see README "Local engines" for picking another one.
RUN apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ffmpeg \
 && rm -rf /var/lib/apt/lists/*
# Two malloc arenas, and blocks of 128 KiB and more (images) always mapped on their own, so freeing one
# gives it back: with glibc's defaults the memory sharp's threads freed after a burst of jobs stayed with
# the process (about 120 MiB more than idle after 200 jobs; 84 MiB after 500 with two arenas; none with
# both, see README "Performance").
# STATIC_DIR is not ./dist: the start takes the console as built and never tries to rebuild it (vite is
# a development dependency, not in this image).
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    HOST=0.0.0.0 \
    PORT=8787 \
    STATIC_DIR=/app/console \
    DATA_DIR=/app/.data \
    FFMPEG_PATH=/usr/bin/ffmpeg \
    FFPROBE_PATH=/usr/bin/ffprobe
# Only what the bundle imports at run time: no development dependency (no tsx, vite or vitest).
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/.build/server /app/.build/server
COPY --from=build /app/dist /app/console
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 8787
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.ROLE==='worker'&&process.env.METRICS_PORT?process.env.METRICS_PORT:process.env.PORT)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
# The same bundle `npm start` runs, in plain node. Operator commands run from it too:
# `node .build/server/image/credits.js grant ...` (and catalog.js, templates.js).
CMD ["node", ".build/server/image/start.js"]
