import { StudioPlaceholder } from "./studio-section.tsx";

export default function StudioOutlinePage() {
  return <StudioPlaceholder title="Outline" what="Coming shortly." />;
}
