# folio's container image (docs/operations.md "Container"): Node 20 on Debian slim, the system
# packages of scripts/setup.sh, a non-root user, DATA_DIR on a volume, a health check.
# test/packaging/container.test.ts keeps it true to scripts/setup.sh, package.json and the README.
#   docker build -t folio .
#   docker run -p 3002:3002 -v folio-data:/data folio

# Build: a C++ toolchain for better-sqlite3's native module (setup.sh's python3, make, g++);
# `npm ci --omit=dev` compiles dist/ in `prepare` with the TypeScript of `dependencies`.
FROM node:20-bookworm-slim AS build
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 make g++ \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY scripts/setup.sh scripts/apt-install.sh scripts/
COPY bin/ bin/
COPY src/ src/
COPY auth/ auth/
COPY tools/ tools/
COPY .well-known/ .well-known/
# The preinstall setup script finds the runtime packages missing here and would call apt: the
# runtime stage installs them instead.
RUN npm ci --omit=dev --ignore-scripts \
 && npm rebuild better-sqlite3 \
 && npm run build \
 && npm cache clean --force

# Run: the packages folio calls at run time (setup.sh's chromium, tesseract-ocr,
# tesseract-ocr-eng, tesseract-ocr-osd, poppler-utils); redis-server is the tests' (use a Redis).
FROM node:20-bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium tesseract-ocr tesseract-ocr-eng tesseract-ocr-osd poppler-utils \
 && rm -rf /var/lib/apt/lists/*
RUN groupadd --system folio && useradd --system --gid folio --home-dir /nonexistent --shell /usr/sbin/nologin folio \
 && mkdir /data && chown folio:folio /data
WORKDIR /app
# The code belongs to root: the folio user reads it and writes only DATA_DIR.
COPY --from=build /app/package.json /app/package-lock.json ./
COPY --from=build /app/bin/ bin/
COPY --from=build /app/dist/ dist/
COPY --from=build /app/node_modules/ node_modules/
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3002 \
    DATA_DIR=/data \
    FOLIO_SHUTDOWN_GRACE_SECONDS=30
VOLUME ["/data"]
USER folio
EXPOSE 3002
# Liveness: GET /health on the port folio listens on (readiness is /ready, for a load balancer).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3002) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# SIGTERM starts the graceful shutdown; give `docker stop -t` more than FOLIO_SHUTDOWN_GRACE_SECONDS.
STOPSIGNAL SIGTERM
CMD ["node", "bin/folio.js", "serve"]
