import { StudioPlaceholder } from "./studio-section.tsx";

export default function StudioVersionsPage() {
  return <StudioPlaceholder title="Versions" what="Coming shortly." />;
}
