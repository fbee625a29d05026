# One image for the router and every subgraph; the command picks the role.

# Build: every dependency (esbuild among them), then dist/: the bundled entry points and the
# migrated PGlite snapshot (what `npm install` builds).
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY sdk/package.json sdk/
# Dependencies only: their install scripts run (those package.json's allowScripts allows); ours, the
# build, needs the sources below.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild --no-audit --no-fund
COPY . .
RUN npm run build

# Run: production dependencies only (what the bundles load from node_modules, docs/decisions/0010-the-bundle.md),
# the sources as they were built from (scripts/launch.mjs compares their times with dist/build.json)
# and dist/. No dependency needs an install script to run, and ours (`prepare`, the build) is done.
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY sdk/package.json sdk/
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund && npm cache clean --force
COPY . .
COPY --from=build /app/dist dist
# Production: the image carries no secret, and refuses to start without a JWT_SECRET of the
# operator's own (docker run -e JWT_SECRET=...) or with a known or placeholder one; no demo company.
ENV NODE_ENV=production
EXPOSE 4000
CMD ["npm", "start"]
