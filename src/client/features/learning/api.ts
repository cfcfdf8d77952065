import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "#client/lib/api-client.ts";
import type { MyLearningCourse, Progress, Quiz, QuizResult, QuizSubmission } from "#shared/schemas/learning.ts";

const enc = encodeURIComponent;

/** A module quiz, or the course's final exam when `moduleId` is null. */
export const assessmentUrl = (courseId: string, moduleId: string | null) =>
  moduleId === null ? `/api/exam/${enc(courseId)}` : `/api/quiz/${enc(courseId)}/${enc(moduleId)}`;

/** Starts an attempt, or resumes the open one. */
export const getAssessment = (courseId: string, moduleId: string | null) =>
  api.get<Quiz>(assessmentUrl(courseId, moduleId));
export const assessmentQueryOptions = (courseId: string, moduleId: string | null) =>
  queryOptions({
    queryKey: moduleId === null ? ["/api/exam", courseId] : ["/api/quiz", courseId, moduleId],
    queryFn: () => getAssessment(courseId, moduleId),
    refetchOnWindowFocus: false,
    retry: false,
  });
export const useAssessment = (courseId: string, moduleId: string | null, enabled = true) =>
  useQuery({ ...assessmentQueryOptions(courseId, moduleId), enabled });

export const submitAssessment = (courseId: string, moduleId: string | null, body: QuizSubmission) =>
  api.post<QuizResult>(assessmentUrl(courseId, moduleId), body);

export const getProgress = (courseId: string) => api.get<Progress>(`/api/progress/${enc(courseId)}`);

export const getMyLearning = () => api.get<MyLearningCourse[]>("/api/my-learning");
export const myLearningQueryOptions = () => queryOptions({ queryKey: ["/api/my-learning"], queryFn: getMyLearning });
export const useMyLearning = () => useQuery(myLearningQueryOptions());
