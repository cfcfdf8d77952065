import { startTransition, useEffect } from "react";
import { createRoot, hydrateRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { App } from "./app/app.tsx";
import { preloadEntryPage } from "./app/routes.tsx";
import { serverPageFor } from "./app/server-pages.ts";
import { adoptServerData, queryClient } from "./lib/query-client.ts";
import "./styles.css";

const root = document.getElementById("root")!;
const app = <App queryClient={queryClient} router={(children) => <BrowserRouter>{children}</BrowserRouter>} />;
// A public page the server rendered (decision 0032) carries the data it was rendered from: the app
// hydrates that HTML once the page's code is in, without asking the server again.
const serverState = document.getElementById("server-state");
const serverPage = serverState && serverPageFor(window.location.pathname, window.location.search);

/** Once the page is hydrated its data block has served: it goes, which also says the page responds. */
function Hydrated({ data }: { data: HTMLElement }) {
  useEffect(() => data.remove(), [data]);
  return null;
}

if (serverState && serverPage) {
  adoptServerData(JSON.parse(serverState.textContent ?? "{}"));
  // As a transition, hydration yields to the browser every few milliseconds instead of holding the
  // main thread for the whole page (decision 0046); a tap meanwhile is handled first.
  void serverPage.preload().then(() =>
    startTransition(
      () =>
        void hydrateRoot(
          root,
          <>
            {app}
            <Hydrated data={serverState} />
          </>,
        ),
    ),
  );
} else {
  preloadEntryPage(window.location.pathname);
  createRoot(root).render(app);
}
