# recall-feed in a container: Node 20 slim, a non-root user, the archive and the config on volumes (docs/deploy.md).
FROM node:20-slim AS build
WORKDIR /src
# better-sqlite3 uses its prebuilt binary when one matches; these build it from source when none does.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY bin ./bin
COPY src ./src
COPY docs ./docs
COPY schemas ./schemas
# npm ci runs `prepare`, which builds dist/; the dev dependencies go afterwards.
RUN npm ci && npm prune --omit=dev

FROM node:20-slim
# tini as PID 1, which node is not made to be: it reaps what an --exec command leaves behind (a child that outlived
# it would otherwise stay a zombie for the container's life) and passes SIGTERM on to node. -s: it reaps as well under
# `docker run --init` (docker's own init then runs it), and says nothing on stderr, where every line is JSON.
RUN apt-get update && apt-get install -y --no-install-recommends tini && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    RECALL_FEED_CONFIG_DIR=/config \
    XDG_DATA_HOME=/data \
    RECALL_FEED_LOG_FORMAT=json
# uid and gid 999, fixed: a folder bind-mounted from the host (the metrics) is made writable for them there.
RUN groupadd --system --gid 999 recall-feed && useradd --system --uid 999 --gid recall-feed --home-dir /data recall-feed \
    && mkdir -p /data /config && chown recall-feed:recall-feed /data /config && chmod 0700 /config
WORKDIR /app
COPY --from=build /src/package.json ./
COPY --from=build /src/bin ./bin
COPY --from=build /src/dist ./dist
COPY --from=build /src/node_modules ./node_modules
COPY --from=build /src/schemas ./schemas
USER recall-feed
# The archive (/data/recall-feed/recalls.db) and the config file (0600) outlive the container.
VOLUME ["/data", "/config"]
ENTRYPOINT ["/usr/bin/tini", "-s", "--", "node", "/app/bin/recall-feed.cjs"]
CMD ["sync", "--watch", "--interval", "900"]
