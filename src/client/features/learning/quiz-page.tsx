import { useParams } from "react-router";
import { paths } from "#client/config/paths.ts";
import { useCourse } from "#client/lib/courses.ts";
import { AssessmentRunner } from "./assessment-runner.tsx";

export default function QuizPage() {
  const { courseId = "", moduleId = "" } = useParams();
  const course = useCourse(courseId).data;
  return (
    <AssessmentRunner
      courseId={courseId}
      moduleId={moduleId}
      nextHref={(quiz) => {
        const next = course?.modules.find((m) => m.id === quiz.nextModuleId);
        if (next?.lessons[0]) return paths.lesson(courseId, next.lessons[0].id);
        // The last module leads on to the final exam when the course has one.
        return course?.exam ? paths.exam(courseId) : paths.course(courseId);
      }}
    />
  );
}
