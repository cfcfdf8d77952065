import { CheckCircle2, ClipboardCheck, GraduationCap, ListTree, Lock, PlayCircle, X } from "lucide-react";
import { Dialog } from "radix-ui";
import { useState } from "react";
import { Link } from "react-router";
import { buttonClasses } from "#client/components/ui/button.tsx";
import type { CourseDetail } from "#shared/schemas/courses.ts";
import { courseOutline, type OutlineItem } from "./course-outline.ts";

const stateWords = { done: "done", open: "", locked: "locked" } as const;

function ItemIcon({ item }: { item: OutlineItem }) {
  if (item.state === "done") return <CheckCircle2 className="shrink-0 text-green-700" size={16} aria-hidden="true" />;
  if (item.state === "locked") return <Lock className="shrink-0 text-slate-500" size={16} aria-hidden="true" />;
  const Icon = item.kind === "lesson" ? PlayCircle : item.kind === "quiz" ? ClipboardCheck : GraduationCap;
  return <Icon className="shrink-0 text-brand-700" size={16} aria-hidden="true" />;
}

/** The course's modules, lessons, quizzes and exam with their states; the item being viewed is `aria-current`. */
export function OutlineList({
  course,
  currentKey,
  onNavigate,
}: {
  course: CourseDetail;
  currentKey: string;
  onNavigate?: () => void;
}) {
  return (
    <ol className="space-y-4">
      {courseOutline(course).map((section) => (
        <li key={section.id}>
          <p className="text-xs font-semibold tracking-wide text-muted uppercase">{section.title}</p>
          <ul className="mt-1 space-y-0.5">
            {section.items.map((item) => {
              const current = item.key === currentKey;
              const words = [stateWords[item.state], current ? "current" : ""].filter(Boolean).join(", ");
              const body = (
                <>
                  <ItemIcon item={item} />
                  <span className="min-w-0 flex-1">
                    {item.title}
                    {words && <span className="sr-only"> ({words})</span>}
                  </span>
                </>
              );
              const row = "flex items-start gap-2 rounded-md px-2 py-1.5 text-sm [&>svg]:mt-0.5";
              return (
                <li key={item.key}>
                  {item.state === "locked" ? (
                    <span className={`${row} text-slate-600`}>{body}</span>
                  ) : (
                    <Link
                      to={item.href}
                      onClick={onNavigate}
                      aria-current={current ? "page" : undefined}
                      className={`${row} ${current ? "bg-brand-50 font-semibold text-brand-900" : "text-slate-800 hover:bg-slate-100"}`}
                    >
                      {body}
                    </Link>
                  )}
                </li>
              );
            })}
          </ul>
        </li>
      ))}
    </ol>
  );
}

/** Beside the lesson on wide screens. */
export function OutlineSidebar({ course, currentKey }: { course: CourseDetail; currentKey: string }) {
  return (
    <nav aria-label="Course outline" className="rounded-2xl border border-line bg-surface p-4">
      <p className="mb-3 font-semibold">{course.title}</p>
      <OutlineList course={course} currentKey={currentKey} />
    </nav>
  );
}

/** On phones: a button that opens the same outline as a drawer (focus stays inside; Escape closes it). */
export function OutlineDrawer({ course, currentKey }: { course: CourseDetail | undefined; currentKey: string }) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger className={buttonClasses("secondary", "sm")} disabled={!course}>
        <ListTree size={16} aria-hidden="true" />
        Course outline
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content
          aria-describedby={undefined}
          className="fixed inset-y-0 left-0 z-50 flex w-[min(22rem,calc(100vw-3rem))] flex-col bg-white shadow-xl"
        >
          <div className="flex items-center justify-between gap-2 border-b border-line px-4 py-3">
            <Dialog.Title className="font-semibold">Course outline</Dialog.Title>
            <Dialog.Close className="rounded-md p-2 text-slate-700 hover:bg-slate-100" aria-label="Close outline">
              <X size={18} aria-hidden="true" />
            </Dialog.Close>
          </div>
          <nav aria-label="Course outline" className="overflow-y-auto p-4">
            {course && <OutlineList course={course} currentKey={currentKey} onNavigate={() => setOpen(false)} />}
          </nav>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
