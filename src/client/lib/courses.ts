import { queryOptions, useQuery } from "@tanstack/react-query";
import { api, dataOf } from "#client/lib/api-client.ts";
import { queryKeys } from "#client/lib/query-keys.ts";

// Course reads several features share (catalogue, landing, checkout, quiz, admin, certificates).

export const getCourses = () => dataOf(api.GET("/api/courses"));
export const coursesQueryOptions = () => queryOptions({ queryKey: queryKeys.courses.all(), queryFn: getCourses });
export const useCourses = () => useQuery(coursesQueryOptions());

export const getCourse = (courseId: string) =>
  dataOf(api.GET("/api/courses/{courseId}", { params: { path: { courseId } } }));
export const courseQueryOptions = (courseId: string) =>
  queryOptions({ queryKey: queryKeys.courses.detail(courseId), queryFn: () => getCourse(courseId) });
export const useCourse = (courseId: string) => useQuery(courseQueryOptions(courseId));

export const getEnrollments = () => dataOf(api.GET("/api/enrollments"));
export const enrollmentsQueryOptions = () =>
  queryOptions({ queryKey: queryKeys.enrollments.all(), queryFn: getEnrollments });
export const useEnrollments = (enabled = true) => useQuery({ ...enrollmentsQueryOptions(), enabled });
