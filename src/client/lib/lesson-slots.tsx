import { type ComponentType, createContext, Suspense, useContext, useEffect, useRef, useState } from "react";
import { buttonClasses } from "#client/components/ui/button.tsx";

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

/**
 * A slot below the lesson, rendered only in the browser: the server's painted lesson never waits for
 * it (a lazy component would suspend the server render). With `revealLabel` its code loads only when
 * the learner asks for it (the questions panel brings the form library and the schemas, about 45 kB,
 * which the lesson's first load does without); focus then moves into it. Without, it loads once it
 * comes near the screen. The lesson page has one copy beside the lesson and one below it; CSS shows one
 * of them by the screen's width, and only the one revealed loads.
 */
export function LessonSlot({
  slot: Slot,
  courseId,
  lessonId,
  revealLabel,
}: {
  slot: ComponentType<{ courseId: string; lessonId: string }> | undefined;
  courseId: string;
  lessonId: string;
  revealLabel?: string;
}) {
  const marker = useRef<HTMLDivElement>(null);
  const [shown, setShown] = useState(false);
  const [revealed, setRevealed] = useState(false);
  useEffect(() => {
    const element = marker.current;
    if (!element || shown || revealLabel) return;
    if (typeof IntersectionObserver === "undefined") {
      setShown(true);
      return;
    }
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((e) => e.isIntersecting)) setShown(true);
      },
      { rootMargin: "400px 0px" },
    );
    observer.observe(element);
    return () => observer.disconnect();
  }, [shown, revealLabel]);
  useEffect(() => {
    if (revealed) marker.current?.focus();
  }, [revealed]);
  if (!Slot) return null;
  if (!shown)
    return (
      <div ref={marker}>
        {revealLabel && (
          <div className="mt-8 flex justify-center">
            <button
              type="button"
              className={buttonClasses("secondary")}
              onClick={() => {
                setShown(true);
                setRevealed(true);
              }}
            >
              {revealLabel}
            </button>
          </div>
        )}
      </div>
    );
  return (
    <div ref={marker} tabIndex={-1}>
      <Suspense fallback={null}>
        <Slot courseId={courseId} lessonId={lessonId} />
      </Suspense>
    </div>
  );
}
