import { useParams } from "react-router";
import { useCourse } from "#client/lib/courses.ts";
import { AssessmentRunner } from "./assessment-runner.tsx";
import { nextStepAfterQuiz } from "./next-step.ts";

export default function QuizPage() {
  const { courseId = "", moduleId = "" } = useParams();
  const course = useCourse(courseId).data;
  return (
    <AssessmentRunner courseId={courseId} moduleId={moduleId} nextStep={(quiz) => nextStepAfterQuiz(course, quiz)} />
  );
}
