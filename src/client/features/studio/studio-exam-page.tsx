import { StudioPlaceholder } from "./studio-section.tsx";

export default function StudioExamPage() {
  return <StudioPlaceholder title="Exam" what="The final exam editor is not ready yet." />;
}
