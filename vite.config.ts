import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig } from "vite";

// `vite build` builds two things (decision 0032): the browser app (dist/client) and the renderer
// the server paints public pages with (dist/server/entry-server.js), from the same components.
export default defineConfig({
  plugins: [react(), tailwindcss()],
  builder: {},
  build: { sourcemap: false },
  environments: {
    client: {
      build: {
        outDir: "dist/client",
        emptyOutDir: true,
        manifest: true,
        // boot.ts: what a page painted on the server starts with, loading the app after its first paint (decision 0046).
        rolldownOptions: { input: { index: "index.html", boot: "src/client/boot.ts" } },
      },
    },
    ssr: {
      build: { outDir: "dist/server", emptyOutDir: true, copyPublicDir: false, ssr: "src/client/entry-server.tsx" },
    },
  },
  server: {
    port: 5173,
    proxy: { "/api": { target: "http://127.0.0.1:3000" } },
  },
});
