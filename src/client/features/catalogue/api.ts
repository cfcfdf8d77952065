import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "#client/lib/api-client.ts";
import type { CourseCard } from "#shared/schemas/courses.ts";

export const getCourses = () => api.get<CourseCard[]>("/api/courses");
export const coursesQueryOptions = () => queryOptions({ queryKey: ["/api/courses"], queryFn: getCourses });
export const useCourses = () => useQuery(coursesQueryOptions());

export const getEnrollments = () => api.get<{ courseId: string; createdAt: string }[]>("/api/enrollments");
export const enrollmentsQueryOptions = () => queryOptions({ queryKey: ["/api/enrollments"], queryFn: getEnrollments });
export const useEnrollments = (enabled = true) => useQuery({ ...enrollmentsQueryOptions(), enabled });
