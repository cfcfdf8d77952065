import { StudioPlaceholder } from "./studio-section.tsx";

export default function StudioSettingsPage() {
  return <StudioPlaceholder title="Settings" what="Coming shortly." />;
}
