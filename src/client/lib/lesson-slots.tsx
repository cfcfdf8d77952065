import { type ComponentType, createContext, useContext } from "react";

/**
 * What other features show on a lesson page without the courses feature importing them: the app's
 * routes provide the questions panel and the lesson's common questions (decision 0056).
 */
export interface LessonSlots {
  Questions?: ComponentType<{ courseId: string; lessonId: string }>;
  CommonQuestions?: ComponentType<{ courseId: string; lessonId: string }>;
}

export const LessonSlotsContext = createContext<LessonSlots>({});
export const useLessonSlots = () => useContext(LessonSlotsContext);
