import { StudioPlaceholder } from "./studio-section.tsx";

export default function StudioPracticalPage() {
  return <StudioPlaceholder title="Practical" what="The practical assessment editor is not ready yet." />;
}
