# One image for the router and every subgraph; the command picks the role.
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
COPY sdk/package.json sdk/
# Dependencies only (their install scripts run; ours, the build, needs the sources below). Optional
# dependencies stay: esbuild's platform binary is one.
RUN npm ci --ignore-scripts --no-audit --no-fund && npm rebuild --no-audit --no-fund
COPY . .
# dist/: the bundled entry points and the migrated PGlite snapshot (what `npm install` builds).
RUN npm run build
# Production: the image carries no secret, and refuses to start without a JWT_SECRET of the
# operator's own (docker run -e JWT_SECRET=...) or with a known or placeholder one; no demo company.
ENV NODE_ENV=production
EXPOSE 4000
CMD ["npm", "start"]
