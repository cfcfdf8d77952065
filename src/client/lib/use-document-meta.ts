import { useEffect } from "react";

function setMeta(name: string, content: string | undefined) {
  if (content === undefined) return;
  let tag = document.head.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!tag) {
    tag = document.createElement("meta");
    tag.name = name;
    document.head.appendChild(tag);
  }
  tag.content = content;
}

/** Page title, description and keywords. */
export function useDocumentMeta(meta: { title: string; description?: string; keywords?: string[] }) {
  const keywords = meta.keywords?.join(", ");
  useEffect(() => {
    document.title = meta.title;
    setMeta("description", meta.description);
    setMeta("keywords", keywords);
  }, [meta.title, meta.description, keywords]);
}
