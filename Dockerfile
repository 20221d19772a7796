# One image for every role: ROLE=api or ROLE=worker (or all) chooses what a container runs.
FROM node:20-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
RUN npx vite build

FROM node:20-bookworm-slim
WORKDIR /app
# Two malloc arenas, and blocks of 128 KiB and more (images) always mapped on their own, so freeing one
# gives it back: with glibc's defaults the memory sharp's threads freed after a burst of jobs stayed with
# the process (about 120 MiB more than idle after 200 jobs; 84 MiB after 500 with two arenas; none with
# both, see README "Performance").
ENV NODE_ENV=production \
    MALLOC_ARENA_MAX=2 \
    MALLOC_MMAP_THRESHOLD_=131072 \
    HOST=0.0.0.0 \
    PORT=8787 \
    STATIC_DIR=/app/dist \
    DATA_DIR=/app/.data
# tsx runs the server's TypeScript as it is in the repository, so the dev dependencies come along.
COPY --from=build /app /app
RUN mkdir -p /app/.data && chown node:node /app/.data
USER node
EXPOSE 8787
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD node -e "fetch('http://127.0.0.1:'+(process.env.ROLE==='worker'&&process.env.METRICS_PORT?process.env.METRICS_PORT:process.env.PORT)+'/readyz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
CMD ["node_modules/.bin/tsx", "src/server/main.ts"]
