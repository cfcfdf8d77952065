import { type DehydratedState, dehydrate } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
import { StaticRouter } from "react-router";
import { App } from "./app/app.tsx";
import { type ServerPageName, serverPageFor } from "./app/server-pages.ts";
import { createQueryClient } from "./lib/query-client.ts";
import { queryKeys } from "./lib/query-keys.ts";

export interface RenderedPage {
  /** The app's HTML for the page, to go inside the shell's root element. */
  html: string;
  /** The data it was rendered from, for the browser's cache. */
  state: DehydratedState;
  /** The page's module, as the build manifest names it. */
  source: string;
}

/** Each painted page's module, as the build manifest names it (the server preloads its chunks). */
const PAGE_SOURCES: Record<ServerPageName, string> = {
  home: "src/client/features/landing/landing-page.tsx",
  login: "src/client/features/auth/login-page.tsx",
  terms: "src/client/features/legal/terms-page.tsx",
  privacy: "src/client/features/legal/privacy-page.tsx",
  course: "src/client/features/courses/course-detail-page.tsx",
  lesson: "src/client/features/courses/lesson-page.tsx",
  practitioners: "src/client/features/practitioners/practitioners-page.tsx",
  verify: "src/client/features/certificates/verify-page.tsx",
};

/**
 * Renders a public page for a visitor (decision 0032), or null for a page the server does not
 * render. `fetchJson` answers a visitor's GET of an API path (it throws on any answer but 200; the
 * page is then left to the browser). Nothing session-dependent goes in: the visitor is signed out.
 */
export async function renderPage(
  url: string,
  fetchJson: (path: string) => Promise<unknown>,
): Promise<RenderedPage | null> {
  const { pathname, search } = new URL(url, "http://localhost");
  const page = serverPageFor(pathname, search);
  if (!page) return null;
  const [data] = await Promise.all([Promise.all(page.queries.map((query) => fetchJson(query.path))), page.preload()]);
  // One cache per request: nothing of one page's data reaches another's.
  const queryClient = createQueryClient();
  queryClient.setQueryData(queryKeys.currentUser(), null);
  page.queries.forEach((query, i) => {
    queryClient.setQueryData(query.queryKey, data[i]);
  });
  const html = renderToString(
    <App
      queryClient={queryClient}
      router={(children) => <StaticRouter location={pathname + search}>{children}</StaticRouter>}
    />,
  );
  const state = dehydrate(queryClient);
  queryClient.clear();
  return { html, state, source: PAGE_SOURCES[page.name] };
}
