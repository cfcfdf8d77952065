/**
 * The only script a page painted on the server starts with (decision 0046). The page shows without
 * the app; the app only makes it respond (hydration). So the app's code is fetched after the first
 * paint instead of competing with the document and the heading font that paint waits for. The
 * server names the app's entry and the chunks to preload on this script's element.
 */
const element = document.querySelector<HTMLScriptElement>("script[data-app]");
const entry = element?.dataset.app;
if (entry) {
  const start = () => {
    for (const href of element.dataset.preload?.split(" ") ?? []) {
      if (!href) continue;
      const link = document.createElement("link");
      link.rel = "modulepreload";
      link.crossOrigin = "";
      link.href = href;
      document.head.append(link);
    }
    void import(/* @vite-ignore */ entry);
  };
  // A tab opened in the background paints nothing until shown: it starts at once.
  if (document.visibilityState === "hidden") start();
  else requestAnimationFrame(() => setTimeout(start, 0));
}
