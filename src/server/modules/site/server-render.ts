import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

/** What the server renderer (dist/server/entry-server.js, built from src/client/entry-server.tsx) gives back. */
interface RenderedPage {
  html: string;
  state: unknown;
  source: string;
}
type RenderPage = (url: string, fetchJson: (path: string) => Promise<unknown>) => Promise<RenderedPage | null>;

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

/** Better Auth's session cookie (plain, or with the __Secure- prefix behind HTTPS). */
const SESSION_COOKIE = /(?:^|;)\s*(?:__Secure-)?better-auth\.session_token=/;

/**
 * Someone who may be signed in: their pages depend on who they are, so the server sends the plain
 * shell and the browser renders (decision 0032). Only requests without a session cookie are
 * rendered, as a visitor, so no one's data goes into another's HTML.
 */
export const mayBeSignedIn = (cookieHeader: string | undefined) => !!cookieHeader && SESSION_COOKIE.test(cookieHeader);

/** The JSON inside a script element: `<` escaped, so no text in it can close the element. */
const scriptJson = (value: unknown) => JSON.stringify(value).replace(/</g, "\\u003c");

/**
 * Server rendering of the public pages (decision 0032), when the build made a renderer: the
 * landing page, course pages, the practitioner directory and verify pages arrive painted, with
 * the data they were rendered from; the browser fetches their code after the first paint and
 * hydrates them (decision 0046).
 */
export async function loadServerRenderer(clientDir: string) {
  const entry = resolve(clientDir, "..", "server", "entry-server.js");
  const manifestPath = resolve(clientDir, ".vite", "manifest.json");
  if (!existsSync(entry) || !existsSync(manifestPath)) return null;
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, ManifestChunk>;
  const boot = manifest["src/client/boot.ts"]?.file;
  if (!boot) return null;
  const { renderPage } = (await import(pathToFileURL(entry).href)) as { renderPage: RenderPage };

  // A page's own chunks (not the entry's: the shell has those), once per page module.
  const entryFiles = new Set<string>();
  const visitEntry = (key: string) => {
    const chunk = manifest[key];
    if (!chunk || entryFiles.has(chunk.file)) return;
    entryFiles.add(chunk.file);
    for (const imported of chunk.imports ?? []) visitEntry(imported);
  };
  for (const [key, chunk] of Object.entries(manifest)) if (chunk.isEntry) visitEntry(key);
  const preloads = new Map<string, string[]>();
  const pageChunks = (source: string) => {
    let chunks = preloads.get(source);
    if (chunks === undefined) {
      const files = new Set<string>();
      const visit = (key: string) => {
        const chunk = manifest[key];
        if (!chunk || entryFiles.has(chunk.file) || files.has(chunk.file)) return;
        files.add(chunk.file);
        for (const imported of chunk.imports ?? []) visit(imported);
      };
      visit(source);
      chunks = [...files].map((file) => `/${file}`);
      preloads.set(source, chunks);
    }
    return chunks;
  };

  // A painted page needs nothing but its HTML to show (decision 0046). The stylesheet goes inline,
  // so the first paint waits for no second request; the app's script and chunks are left to
  // boot.ts, which fetches them after that paint. (Pages the browser renders keep the shell as
  // built: they show only once their script has run.)
  const stylesheetLink = /<link rel="stylesheet" crossorigin href="\/(assets\/[^"]+\.css)">/g;
  const entryScript = /<script type="module" crossorigin src="([^"]+)"><\/script>/;
  const modulePreload = /\n?\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;
  const inlineStyles = new Map<string, string>();
  const inlineStyle = (link: string, file: string) => {
    let style = inlineStyles.get(file);
    if (style === undefined) {
      const css = readFileSync(resolve(clientDir, file), "utf8");
      style = css.includes("</") ? link : `<style>${css}</style>`;
      inlineStyles.set(file, style);
    }
    return style;
  };
  const bootScript = (shell: string, source: string) => {
    const preload = [...[...shell.matchAll(modulePreload)].map((match) => match[1]), ...pageChunks(source)];
    return shell
      .replace(modulePreload, "")
      .replace(
        entryScript,
        (_tag, app: string) =>
          `<script type="module" crossorigin src="/${boot}" data-app="${app}" data-preload="${preload.join(" ")}"></script>`,
      );
  };

  /**
   * The shell with the page painted in, or null when the page is not one the server renders or one
   * of its reads did not answer 200 (the browser then renders it, as for every other page).
   */
  return async (shell: string, url: string, fetchJson: (path: string) => Promise<unknown>) => {
    const page = await renderPage(url, fetchJson);
    if (!page) return null;
    return bootScript(shell, page.source)
      .replace(stylesheetLink, inlineStyle)
      .replace(
        '<div id="root"></div>',
        () =>
          `<div id="root">${page.html}</div>\n    <script type="application/json" id="server-state">${scriptJson(page.state)}</script>`,
      );
  };
}

export type ServerRenderer = NonNullable<Awaited<ReturnType<typeof loadServerRenderer>>>;
