import { StudioPlaceholder } from "./studio-section.tsx";

export default function StudioPublishPage() {
  return <StudioPlaceholder title="Publish" what="Coming shortly." />;
}
