import { notFound } from "../../errors.ts";
import type { CatalogueCourse } from "./course-catalogue.ts";

export const COURSE_NOT_FOUND = "This course could not be found or is not available.";
export const NOT_ENROLLED = "You need to purchase this course to access quizzes and track your progress.";

/** The course, or a 404 with the catalogue's message. */
export function requireCourse(course: CatalogueCourse | undefined): CatalogueCourse {
  if (!course) throw notFound(COURSE_NOT_FOUND);
  return course;
}
