# One image for the router and every subgraph; the command picks the role.
FROM node:24-bookworm-slim
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=optional --no-audit --no-fund
COPY . .
ENV NODE_ENV=production
EXPOSE 4000
CMD ["npm", "start"]
