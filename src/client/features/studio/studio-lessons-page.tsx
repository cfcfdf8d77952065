import { StudioPlaceholder } from "./studio-section.tsx";

export default function StudioLessonsPage() {
  return (
    <StudioPlaceholder
      title="Lessons"
      what="The lesson editor is not ready yet: edit lesson text in the course files for now."
    />
  );
}
