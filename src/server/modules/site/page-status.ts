import { isQuestionPage, matchClientRoute } from "#shared/client-routes.ts";
import type { Catalogue } from "../courses/course-catalogue.ts";

/**
 * The status the app shell is sent with: 404 for a path the app has no page for, and for a course,
 * lesson, quiz or exam page whose content does not exist (the app then shows its not-found message).
 * Course content comes from the in-memory catalogue; a verify page's certificate from
 * `certificateExists` (one primary-key read), since a shared verify link that answers 200 for an
 * unknown ID would look genuine to a link checker. The questions pages answer 200 for their own
 * names only. Other ids (checkout sessions) answer 200, and so does every page while its source
 * cannot be read (the app reports that itself).
 */
export async function pageStatus(
  pathname: string,
  catalogue: () => Promise<Catalogue>,
  certificateExists?: (certificateId: string) => Promise<boolean>,
): Promise<200 | 404> {
  const match = matchClientRoute(pathname);
  if (!match) return 404;
  const param = (key: string) => {
    try {
      return decodeURIComponent(match.params[key] ?? "");
    } catch {
      return "";
    }
  };
  if (match.name === "verify" && certificateExists) {
    try {
      return (await certificateExists(param("certificateId"))) ? 200 : 404;
    } catch {
      return 200;
    }
  }
  if (match.name === "questionsPage") return isQuestionPage(param("page")) ? 200 : 404;
  if (match.params.courseId === undefined) return 200;
  let content: Catalogue;
  try {
    content = await catalogue();
  } catch {
    return 200;
  }
  const course = content.byId.get(param("courseId"));
  if (!course) return 404;
  switch (match.name) {
    case "lesson":
      return course.lessonsById.has(param("lessonId")) ? 200 : 404;
    case "quiz":
      return course.modulesById.get(param("moduleId"))?.quiz ? 200 : 404;
    case "exam":
    case "recertify":
      return course.exam ? 200 : 404;
    case "practical":
      return course.practical ? 200 : 404;
    default:
      return 200;
  }
}
