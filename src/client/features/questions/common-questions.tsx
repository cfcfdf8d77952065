import { useCommonQuestions } from "./api.ts";

/** HTML the server sanitised from a post's Markdown. */
const Sanitised = ({ html, className }: { html: string; className: string }) => (
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with an allow-list on the server (decision 0056).
  <div className={className} dangerouslySetInnerHTML={{ __html: html }} />
);

/** The lesson's "Common questions": questions staff promoted, each with its accepted answer (decision 0056). */
export default function CommonQuestions({ courseId, lessonId }: { courseId: string; lessonId: string }) {
  const common = useCommonQuestions(courseId, lessonId);
  const items = common.data?.items ?? [];
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="common-questions-heading" className="mt-8">
      <h2 id="common-questions-heading" className="text-xl font-bold">
        Common questions
      </h2>
      <div className="mt-3 space-y-2">
        {items.map((item) => (
          <details key={item.questionId} className="rounded border border-slate-200 p-3">
            <summary className="cursor-pointer font-medium">{item.title}</summary>
            <Sanitised className="prose-lesson mt-2 text-sm" html={item.questionHtml} />
            <Sanitised className="prose-lesson mt-2 border-l-4 border-green-700 pl-3 text-sm" html={item.answerHtml} />
          </details>
        ))}
      </div>
    </section>
  );
}
