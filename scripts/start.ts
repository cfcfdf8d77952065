import { spawnSync } from "node:child_process";
import cluster from "node:cluster";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";

// `npm start` builds the client (and the server renderer of the public pages, decision 0032) when
// either is missing or older than their sources, then serves
// (src/server/main.ts forks the workers, which run this file again and skip the build check).
function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function buildIfStale() {
  const built = resolve("dist/client/index.html");
  const sources = Math.max(
    newestMtime(resolve("src/client")),
    newestMtime(resolve("src/shared")),
    statSync(resolve("index.html")).mtimeMs,
  );
  const renderer = resolve("dist/server/entry-server.js");
  if (existsSync(built) && existsSync(renderer) && statSync(built).mtimeMs >= sources) return;
  console.log("Building the web app...");
  const result = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (cluster.isPrimary) buildIfStale();
await import("../src/server/main.ts");
