import { StudioPlaceholder } from "./studio-section.tsx";

export default function StudioQuestionBanksPage() {
  return <StudioPlaceholder title="Question banks" what="The question bank editor is not ready yet." />;
}
