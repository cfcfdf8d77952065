// Compiles the server once into dist/app/main.js (decision 0059): our TypeScript bundled into one ES
// module, every package left to node_modules. Production starts it with plain Node, so no start pays
// for compiling the sources again.
import { build } from "esbuild";

export const SERVER_ENTRY = "src/server/main.ts";
export const SERVER_BUNDLE = "dist/app/main.js";

/** Bundles the server into `outfile`, which must sit inside the project so its packages resolve. */
export async function buildServer(outfile = SERVER_BUNDLE) {
  await build({
    entryPoints: [SERVER_ENTRY],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    jsx: "automatic",
    sourcemap: true,
    logLevel: "warning",
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await buildServer();
