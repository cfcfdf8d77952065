import { queryOptions, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import { api } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";
import type { CourseCard, CourseDetail, enrollmentListSchema } from "#shared/schemas/courses.ts";

// Course reads several features share (catalogue, landing, checkout, quiz, admin, certificates).

export const getCourses = () => api.get<CourseCard[]>("/api/courses");
export const coursesQueryOptions = () => queryOptions({ queryKey: queryKeys.courses.all(), queryFn: getCourses });
export const useCourses = () => useQuery(coursesQueryOptions());

export const getCourse = (courseId: string) => api.get<CourseDetail>(`/api/courses/${encodeURIComponent(courseId)}`);
export const courseQueryOptions = (courseId: string) =>
  queryOptions({ queryKey: queryKeys.courses.detail(courseId), queryFn: () => getCourse(courseId) });
export const useCourse = (courseId: string) => useQuery(courseQueryOptions(courseId));

export const getEnrollments = () => api.get<z.infer<typeof enrollmentListSchema>>("/api/enrollments");
export const enrollmentsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.enrollments.all(), queryFn: getEnrollments });
export const useEnrollments = (enabled = true) => useQuery({ ...enrollmentsQueryOptions(), enabled });
