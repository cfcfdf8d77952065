import { StudioPlaceholder } from "./studio-section.tsx";

export default function StudioPreviewPage() {
  return <StudioPlaceholder title="Preview" what="Previewing the draft as a learner is not ready yet." />;
}
