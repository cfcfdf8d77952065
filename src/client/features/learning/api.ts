import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "#client/lib/api-client.ts";
import type { MyLearningCourse, Progress, Quiz, QuizResult } from "#shared/schemas/learning.ts";

const enc = encodeURIComponent;

export const getQuiz = (courseId: string, moduleId: string) =>
  api.get<Quiz>(`/api/quiz/${enc(courseId)}/${enc(moduleId)}`);
export const quizQueryOptions = (courseId: string, moduleId: string) =>
  queryOptions({
    queryKey: ["/api/quiz", courseId, moduleId],
    queryFn: () => getQuiz(courseId, moduleId),
    refetchOnWindowFocus: false,
  });
export const useQuiz = (courseId: string, moduleId: string) => useQuery(quizQueryOptions(courseId, moduleId));

export const submitQuiz = (courseId: string, moduleId: string, answers: Record<string, string>) =>
  api.post<QuizResult>(`/api/quiz/${enc(courseId)}/${enc(moduleId)}`, { answers });

export const getProgress = (courseId: string) => api.get<Progress>(`/api/progress/${enc(courseId)}`);

export const getMyLearning = () => api.get<MyLearningCourse[]>("/api/my-learning");
export const myLearningQueryOptions = () => queryOptions({ queryKey: ["/api/my-learning"], queryFn: getMyLearning });
export const useMyLearning = () => useQuery(myLearningQueryOptions());
