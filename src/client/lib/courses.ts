import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "#client/lib/api-client.ts";
import type { CourseCard, CourseDetail } from "#shared/schemas/courses.ts";

// Course reads several features share (catalogue, landing, checkout, quiz, admin, certificates).

export const getCourses = () => api.get<CourseCard[]>("/api/courses");
export const coursesQueryOptions = () => queryOptions({ queryKey: ["/api/courses"], queryFn: getCourses });
export const useCourses = () => useQuery(coursesQueryOptions());

export const getCourse = (courseId: string) => api.get<CourseDetail>(`/api/courses/${encodeURIComponent(courseId)}`);
export const courseQueryOptions = (courseId: string) =>
  queryOptions({ queryKey: ["/api/courses", courseId], queryFn: () => getCourse(courseId) });
export const useCourse = (courseId: string) => useQuery(courseQueryOptions(courseId));

export const getEnrollments = () => api.get<{ courseId: string; createdAt: string }[]>("/api/enrollments");
export const enrollmentsQueryOptions = () => queryOptions({ queryKey: ["/api/enrollments"], queryFn: getEnrollments });
export const useEnrollments = (enabled = true) => useQuery({ ...enrollmentsQueryOptions(), enabled });
