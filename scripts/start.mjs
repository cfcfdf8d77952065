// `npm start`: builds what is missing or older than its sources (the web app and its server renderer,
// decision 0032; the compiled server, decision 0059), then serves from compiled JavaScript.
// src/server/main.ts forks the workers, which run this file again and skip the build check.
import { spawnSync } from "node:child_process";
import cluster from "node:cluster";
import { existsSync, readdirSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { buildServer, SERVER_BUNDLE } from "./build-server.mjs";

function newestMtime(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** True when `output` is missing or older than any of `sources`. */
function stale(output, sources) {
  if (!existsSync(output)) return true;
  const built = statSync(output).mtimeMs;
  return sources.some((source) => newestMtime(resolve(source)) > built);
}

if (cluster.isPrimary) {
  const shared = ["src/shared", "package.json"];
  if (
    stale("dist/client/index.html", ["src/client", "index.html", ...shared]) ||
    !existsSync("dist/server/entry-server.js")
  ) {
    console.log("Building the web app...");
    const result = spawnSync("npx", ["vite", "build", "--logLevel", "warn"], { stdio: "inherit" });
    if (result.status !== 0) process.exit(result.status ?? 1);
  }
  if (stale(SERVER_BUNDLE, ["src/server", ...shared])) {
    console.log("Compiling the server...");
    await buildServer();
  }
}
await import(pathToFileURL(resolve(SERVER_BUNDLE)).href);
