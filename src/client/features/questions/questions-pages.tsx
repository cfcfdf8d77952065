import { Navigate, useLocation, useParams } from "react-router";
import { paths } from "#client/config/paths.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import CourseQuestionsPage from "./course-questions-page.tsx";
import NotificationsPage from "./notifications-page.tsx";
import QuestionUnsubscribePage from "./question-unsubscribe-page.tsx";
import StaffQuestionsPage from "./staff-questions-page.tsx";

const SIGNED_IN = { unanswered: StaffQuestionsPage, notices: NotificationsPage } as const;

/**
 * The questions feature's pages under one route of the app's table (the first load stays within its
 * budget): /questions/search?course= (a course's questions), /questions/unanswered, /questions/notices (both for the signed-in)
 * and /questions/unsubscribe (a signed link, no sign-in).
 */
export default function QuestionsPages() {
  const { page = "" } = useParams();
  const { user } = useCurrentUser();
  const location = useLocation();
  if (page === "search") return <CourseQuestionsPage />;
  if (page === "unsubscribe") return <QuestionUnsubscribePage />;
  const Page = SIGNED_IN[page as keyof typeof SIGNED_IN];
  // The app's route lets only the known names through (#shared/client-routes.ts).
  if (!Page) return null;
  if (!user)
    return <Navigate to={`${paths.login}?next=${encodeURIComponent(location.pathname + location.search)}`} replace />;
  return <Page />;
}
