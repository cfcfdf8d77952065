import { lazy, Suspense } from "react";
import { Link, Navigate, Route, Routes } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import { PageContainer, Spinner } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { StudioCourseLayout } from "./studio-course-layout.tsx";
import StudioHomePage from "./studio-home-page.tsx";

// Each section's code loads when it is opened: the list of courses does not carry the editors.
const SettingsPage = lazy(() => import("./studio-settings-page.tsx"));
const OutlinePage = lazy(() => import("./studio-outline-page.tsx"));
const LessonsPage = lazy(() => import("./studio-lessons-page.tsx"));
const QuestionBanksPage = lazy(() => import("./studio-question-banks-page.tsx"));
const ExamPage = lazy(() => import("./studio-exam-page.tsx"));
const PracticalPage = lazy(() => import("./studio-practical-page.tsx"));
const PreviewPage = lazy(() => import("./studio-preview-page.tsx"));
const PublishPage = lazy(() => import("./studio-publish-page.tsx"));
const VersionsPage = lazy(() => import("./studio-versions-page.tsx"));

function StudioForbidden() {
  useDocumentMeta({
    title: `403 Access Denied | ${BRAND_NAME}`,
    description: "The studio is for the academy's administrators and instructors.",
  });
  return (
    <PageContainer className="max-w-xl py-20 text-center">
      <h1 className="text-3xl font-bold">403 Access Denied</h1>
      <p className="mt-3 text-muted">The studio is for the academy's administrators and instructors.</p>
      <Link to={paths.home} className={buttonClasses("primary", "md", "mt-6")}>
        Back to Courses
      </Link>
    </PageContainer>
  );
}

function StudioNotFound() {
  useDocumentMeta({ title: `Not found | Studio | ${BRAND_NAME}`, description: "No such studio page." });
  return (
    <PageContainer className="max-w-xl py-20 text-center">
      <h1 className="text-3xl font-bold">No such studio page</h1>
      <Link to={paths.studio} className={buttonClasses("primary", "md", "mt-6")}>
        Back to the studio
      </Link>
    </PageContainer>
  );
}

/** The course studio (docs/decisions/0060), for admins and instructors; the server checks every call too. */
export default function StudioApp() {
  const { user } = useCurrentUser();
  if (user?.role !== "admin" && user?.role !== "instructor") return <StudioForbidden />;
  const section = (element: React.ReactNode) => <Suspense fallback={<Spinner />}>{element}</Suspense>;
  return (
    <Routes>
      <Route index element={<StudioHomePage />} />
      <Route path="courses/:courseId" element={<StudioCourseLayout />}>
        <Route index element={<Navigate to="settings" replace />} />
        <Route path="settings" element={section(<SettingsPage />)} />
        <Route path="outline" element={section(<OutlinePage />)} />
        <Route path="lessons/*" element={section(<LessonsPage />)} />
        <Route path="question-banks/*" element={section(<QuestionBanksPage />)} />
        <Route path="exam" element={section(<ExamPage />)} />
        <Route path="practical" element={section(<PracticalPage />)} />
        <Route path="preview/*" element={section(<PreviewPage />)} />
        <Route path="publish" element={section(<PublishPage />)} />
        <Route path="versions" element={section(<VersionsPage />)} />
        <Route path="*" element={<StudioNotFound />} />
      </Route>
      <Route path="*" element={<StudioNotFound />} />
    </Routes>
  );
}
