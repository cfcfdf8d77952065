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
if (serverState && serverPage) {
  adoptServerData(JSON.parse(serverState.textContent ?? "{}"));
  void serverPage.preload().then(() => hydrateRoot(root, app));
} else {
  preloadEntryPage(window.location.pathname);
  createRoot(root).render(app);
}
