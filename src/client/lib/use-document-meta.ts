import { useEffect } from "react";

/** The site-wide description, for pages without one of their own (matches index.html). */
export const DEFAULT_DESCRIPTION =
  "Online courses for wellness and holistic-health coaches, each with a Certificate of Completion: nutrition coaching, functional nutrition, integrative health and practice business skills.";

function setMeta(name: string, content: string | undefined) {
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (content === undefined) {
    tag?.remove();
    return;
  }
  if (!tag) {
    tag = document.createElement("meta");
    tag.name = name;
    document.head.appendChild(tag);
  }
  tag.content = content;
}

/**
 * Page title, description and keywords. Every page names its own description (undefined only while
 * its data loads, then the site's is shown), so nothing of the previous page's survives a navigation.
 */
export function useDocumentMeta(meta: { title: string; description: string | undefined; keywords?: string[] }) {
  const keywords = meta.keywords?.join(", ");
  const description = meta.description ?? DEFAULT_DESCRIPTION;
  useEffect(() => {
    document.title = meta.title;
    setMeta("description", description);
    setMeta("keywords", keywords);
  }, [meta.title, description, keywords]);
}
