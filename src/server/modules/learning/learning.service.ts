import { notFound } from "../../errors.ts";
import type { CatalogueCourse } from "../courses/course-catalogue.ts";
import { COURSE_NOT_FOUND } from "../courses/courses.service.ts";

export const NOT_ENROLLED = "You need to purchase this course to access quizzes and track your progress.";

export function requireCourse(course: CatalogueCourse | undefined): CatalogueCourse {
  if (!course) throw notFound(COURSE_NOT_FOUND);
  return course;
}
