import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from "@dnd-kit/core";
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { ArrowDown, ArrowUp, GripVertical, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/misc.tsx";
import type { Draft, OutlineModule } from "#shared/schemas/studio.ts";
import { useSaveOutcome, useSaveOutline } from "./api.ts";
import {
  allIds,
  moveItem,
  moveLessonTo,
  newId,
  outlineLines,
  outlineOf,
  placeOf,
  stepLesson,
} from "./outline-model.ts";
import { StaleDraftNotice } from "./stale-draft.tsx";
import { StudioSection, useStudioCourseId, useStudioDraft } from "./studio-section.tsx";

const inputClass =
  "h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base aria-[invalid=true]:border-danger";
const ANNOUNCER = "outline-announcement";

type Lesson = OutlineModule["lessons"][number];

interface LessonActions {
  rename: (lessonId: string, title: string) => void;
  step: (lessonId: string, step: -1 | 1) => void;
  moveTo: (lessonId: string, moduleIndex: number) => void;
  remove: (lessonId: string) => void;
}

function LessonRow(props: {
  lesson: Lesson;
  moduleIndex: number;
  first: boolean;
  last: boolean;
  modules: OutlineModule[];
  actions: LessonActions;
}) {
  const { lesson, actions } = props;
  const sortable = useSortable({ id: lesson.id });
  const [target, setTarget] = useState("");
  const style = { transform: CSS.Transform.toString(sortable.transform), transition: sortable.transition };
  const titleId = `lesson-title-${lesson.id}`;
  const others = props.modules.map((m, i) => ({ m, i })).filter(({ i }) => i !== props.moduleIndex);
  return (
    <li
      ref={sortable.setNodeRef}
      style={style}
      className={`flex flex-wrap items-center gap-2 rounded-lg border border-line bg-white p-2 ${sortable.isDragging ? "shadow-lg" : ""}`}
    >
      <button
        type="button"
        {...sortable.attributes}
        {...sortable.listeners}
        id={`lesson-handle-${lesson.id}`}
        aria-label={`Reorder ${lesson.title}`}
        className="flex h-11 w-9 shrink-0 cursor-grab items-center justify-center rounded text-slate-600 hover:bg-slate-100"
      >
        <GripVertical size={18} aria-hidden="true" />
      </button>
      <div className="min-w-0 flex-1 basis-48">
        <label htmlFor={titleId} className="sr-only">
          Lesson title
        </label>
        <input
          id={titleId}
          value={lesson.title}
          onChange={(e) => actions.rename(lesson.id, e.target.value)}
          aria-invalid={lesson.title.trim() ? undefined : true}
          className={inputClass}
        />
      </div>
      <div className="flex min-w-0 max-w-full flex-wrap items-center gap-1">
        <Button
          id={`lesson-up-${lesson.id}`}
          size="sm"
          variant="ghost"
          disabled={props.first}
          aria-label={`Move ${lesson.title} up`}
          onClick={() => actions.step(lesson.id, -1)}
        >
          <ArrowUp size={16} aria-hidden="true" />
        </Button>
        <Button
          id={`lesson-down-${lesson.id}`}
          size="sm"
          variant="ghost"
          disabled={props.last}
          aria-label={`Move ${lesson.title} down`}
          onClick={() => actions.step(lesson.id, 1)}
        >
          <ArrowDown size={16} aria-hidden="true" />
        </Button>
        {others.length > 0 && (
          <>
            <label htmlFor={`lesson-target-${lesson.id}`} className="sr-only">
              Module to move {lesson.title} to
            </label>
            <select
              id={`lesson-target-${lesson.id}`}
              value={target}
              onChange={(e) => setTarget(e.target.value)}
              className="h-9 w-full min-w-0 rounded-lg border border-slate-300 bg-white px-2 text-sm sm:w-auto sm:max-w-40"
            >
              <option value="">Move to module…</option>
              {others.map(({ m, i }) => (
                <option key={m.id} value={i}>
                  {i + 1}. {m.title}
                </option>
              ))}
            </select>
            <Button
              size="sm"
              variant="secondary"
              disabled={target === ""}
              aria-label={`Move ${lesson.title} to the chosen module`}
              onClick={() => {
                actions.moveTo(lesson.id, Number(target));
                setTarget("");
              }}
            >
              Move
            </Button>
          </>
        )}
        <Button
          size="sm"
          variant="ghost"
          aria-label={`Delete ${lesson.title}`}
          onClick={() => actions.remove(lesson.id)}
        >
          <Trash2 size={16} aria-hidden="true" />
        </Button>
      </div>
    </li>
  );
}

function AddForm(props: { id: string; label: string; button: string; onAdd: (title: string) => void }) {
  const [title, setTitle] = useState("");
  const [error, setError] = useState("");
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!title.trim()) {
      setError("Write a title first.");
      document.getElementById(props.id)?.focus();
      return;
    }
    props.onAdd(title.trim());
    setTitle("");
    setError("");
  };
  return (
    <form onSubmit={submit} noValidate className="flex flex-wrap items-end gap-2">
      <div className="min-w-0 flex-1 basis-56">
        <label htmlFor={props.id} className="mb-1 block text-sm font-medium">
          {props.label}
        </label>
        <input
          id={props.id}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${props.id}-error` : undefined}
          className={inputClass}
        />
        {error && (
          <p id={`${props.id}-error`} className="mt-1 text-sm font-medium text-danger">
            {error}
          </p>
        )}
      </div>
      <Button type="submit" variant="secondary">
        {props.button}
      </Button>
    </form>
  );
}

function OutlineEditor({ draft }: { draft: Draft }) {
  const courseId = useStudioCourseId();
  const save = useSaveOutline(courseId);
  const [base, setBase] = useState(draft);
  const [outline, setOutline] = useState(() => outlineOf(draft.document));
  const [stale, setStale] = useState<Draft | null>(null);
  const [announcement, setAnnouncement] = useState("");
  const [status, setStatus] = useState("");
  const [focusIds, setFocusIds] = useState<string[]>([]);
  const sensors = useSensors(
    useSensor(PointerSensor),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const unsaved = JSON.stringify(outline) !== JSON.stringify(outlineOf(base.document));

  // After an action, focus goes to the first of these controls that is there and enabled.
  useEffect(() => {
    if (focusIds.length === 0) return;
    for (const id of focusIds) {
      const el = document.getElementById(id) as HTMLButtonElement | null;
      if (el && !el.disabled) {
        el.focus();
        break;
      }
    }
    setFocusIds([]);
  }, [focusIds]);

  const title = (lessonId: string) =>
    outline.flatMap((m) => m.lessons).find((l) => l.id === lessonId)?.title ?? lessonId;
  const announceLesson = (next: OutlineModule[], lessonId: string) =>
    setAnnouncement(`${title(lessonId)} moved to ${placeOf(next, lessonId)}.`);

  const actions: LessonActions = {
    rename: (lessonId, value) =>
      setOutline((o) =>
        o.map((m) => ({ ...m, lessons: m.lessons.map((l) => (l.id === lessonId ? { ...l, title: value } : l)) })),
      ),
    step: (lessonId, step) => {
      const next = stepLesson(outline, lessonId, step);
      setOutline(next);
      announceLesson(next, lessonId);
      const [same, other] = step === -1 ? ["up", "down"] : ["down", "up"];
      setFocusIds([`lesson-${same}-${lessonId}`, `lesson-${other}-${lessonId}`]);
    },
    moveTo: (lessonId, moduleIndex) => {
      const next = moveLessonTo(outline, lessonId, moduleIndex, Number.POSITIVE_INFINITY);
      setOutline(next);
      announceLesson(next, lessonId);
      setFocusIds([`lesson-handle-${lessonId}`]);
    },
    remove: (lessonId) => {
      const module = outline.find((m) => m.lessons.some((l) => l.id === lessonId));
      const index = module?.lessons.findIndex((l) => l.id === lessonId) ?? -1;
      const neighbour = module?.lessons[index + 1] ?? module?.lessons[index - 1];
      setOutline((o) => o.map((m) => ({ ...m, lessons: m.lessons.filter((l) => l.id !== lessonId) })));
      setAnnouncement(`${title(lessonId)} deleted (when you save the outline).`);
      setFocusIds([neighbour ? `lesson-title-${neighbour.id}` : `new-lesson-${module?.id}`]);
    },
  };

  const moveModule = (index: number, step: -1 | 1) => {
    const module = outline[index];
    if (!module) return;
    const next = moveItem(outline, index, index + step);
    setOutline(next);
    setAnnouncement(`Module ${module.title} moved to position ${index + step + 1} of ${next.length}.`);
    const [same, other] = step === -1 ? ["up", "down"] : ["down", "up"];
    setFocusIds([`module-${same}-${module.id}`, `module-${other}-${module.id}`]);
  };
  const removeModule = (index: number) => {
    const module = outline[index];
    if (!module) return;
    const neighbour = outline[index + 1] ?? outline[index - 1];
    setOutline(outline.filter((_, i) => i !== index));
    setAnnouncement(
      `Module ${module.title} and its ${module.lessons.length} lessons deleted (when you save the outline).`,
    );
    setFocusIds([neighbour ? `module-title-${neighbour.id}` : "new-module"]);
  };
  const addModule = (moduleTitle: string) => {
    const id = newId(moduleTitle, [...allIds(outline), ...allIds(outlineOf(base.document))], "module");
    setOutline([...outline, { id, title: moduleTitle, lessons: [] }]);
    setAnnouncement(`Module ${moduleTitle} added as module ${outline.length + 1}.`);
  };
  const addLesson = (moduleIndex: number, lessonTitle: string) => {
    const id = newId(lessonTitle, [...allIds(outline), ...allIds(outlineOf(base.document))], "lesson");
    const next = outline.map((m, i) =>
      i === moduleIndex ? { ...m, lessons: [...m.lessons, { id, title: lessonTitle }] } : m,
    );
    setOutline(next);
    setAnnouncement(`${lessonTitle} added at ${placeOf(next, id)}.`);
  };
  const dragEnd = (moduleIndex: number) => (event: DragEndEvent) => {
    const { active, over } = event;
    if (!over || active.id === over.id) return;
    const module = outline[moduleIndex];
    if (!module) return;
    const from = module.lessons.findIndex((l) => l.id === active.id);
    const to = module.lessons.findIndex((l) => l.id === over.id);
    if (from < 0 || to < 0) return;
    const next = outline.map((m, i) => (i === moduleIndex ? { ...m, lessons: moveItem(m.lessons, from, to) } : m));
    setOutline(next);
    announceLesson(next, String(active.id));
  };

  const outcome = useSaveOutcome({
    onSaved: (saved) => {
      // The notice's button had focus: it goes to the save button the notice leaves behind.
      if (stale) setFocusIds(["save-outline"]);
      setBase(saved);
      setStale(null);
      setOutline(outlineOf(saved.document));
    },
    onStale: setStale,
    setStatus,
  });
  const send = (baseRevision: number) => {
    if (save.isPending) return;
    const empty = outline.flatMap((m) => [m, ...m.lessons]).find((x) => !x.title.trim());
    if (empty) {
      setStatus("Not saved: every module and lesson needs a title.");
      setFocusIds([`module-title-${empty.id}`, `lesson-title-${empty.id}`]);
      return;
    }
    setStatus("Saving…");
    save.mutate({ baseRevision, modules: outline }, outcome);
  };

  const mine = outlineLines(outline);
  const theirs = stale ? outlineLines(outlineOf(stale.document)) : [];
  const differences = Array.from({ length: Math.max(mine.length, theirs.length) }, (_, i) => ({
    label: `Module ${i + 1}`,
    mine: mine[i] ?? "",
    theirs: theirs[i] ?? "",
  })).filter((d) => d.mine !== d.theirs);

  const lessonCount = outline.reduce((n, m) => n + m.lessons.length, 0);
  let seen = 0;
  return (
    <div className="space-y-6">
      <p id={ANNOUNCER} role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <p className="text-sm text-muted">
        Reorder lessons by dragging their handle, or with the keyboard: Space on a handle picks it up, the arrow keys
        move it, Space drops it. The arrow buttons move a lesson across modules too. Nothing changes for learners until
        you publish.
      </p>
      {stale && (
        <StaleDraftNotice
          revision={stale.revision}
          differences={differences}
          busy={save.isPending}
          onKeepMine={() => send(stale.revision)}
          onTakeTheirs={() => {
            setBase(stale);
            setOutline(outlineOf(stale.document));
            setStale(null);
            setStatus(`Their outline is shown (revision ${stale.revision}).`);
            setFocusIds(["new-module"]);
          }}
        />
      )}
      <ol className="space-y-6">
        {outline.map((module, moduleIndex) => {
          const firstIndex = seen;
          seen += module.lessons.length;
          return (
            <li key={module.id}>
              <Card className="p-4">
                <section aria-labelledby={`module-heading-${module.id}`}>
                  <h2 id={`module-heading-${module.id}`} className="text-lg font-semibold">
                    Module {moduleIndex + 1}: {module.title || "(untitled)"}
                  </h2>
                  <div className="mt-3 flex flex-wrap items-end gap-2">
                    <div className="min-w-0 flex-1 basis-56">
                      <label htmlFor={`module-title-${module.id}`} className="mb-1 block text-sm font-medium">
                        Module title
                      </label>
                      <input
                        id={`module-title-${module.id}`}
                        value={module.title}
                        aria-invalid={module.title.trim() ? undefined : true}
                        onChange={(e) =>
                          setOutline(outline.map((m, i) => (i === moduleIndex ? { ...m, title: e.target.value } : m)))
                        }
                        className={inputClass}
                      />
                    </div>
                    <Button
                      id={`module-up-${module.id}`}
                      size="sm"
                      variant="ghost"
                      disabled={moduleIndex === 0}
                      aria-label={`Move module ${module.title} up`}
                      onClick={() => moveModule(moduleIndex, -1)}
                    >
                      <ArrowUp size={16} aria-hidden="true" />
                    </Button>
                    <Button
                      id={`module-down-${module.id}`}
                      size="sm"
                      variant="ghost"
                      disabled={moduleIndex === outline.length - 1}
                      aria-label={`Move module ${module.title} down`}
                      onClick={() => moveModule(moduleIndex, 1)}
                    >
                      <ArrowDown size={16} aria-hidden="true" />
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Delete module ${module.title}`}
                      onClick={() => removeModule(moduleIndex)}
                    >
                      <Trash2 size={16} aria-hidden="true" />
                    </Button>
                  </div>
                  <DndContext
                    sensors={sensors}
                    collisionDetection={closestCenter}
                    onDragEnd={dragEnd(moduleIndex)}
                    accessibility={{
                      announcements: {
                        onDragStart: ({ active }) => `Picked up ${title(String(active.id))}.`,
                        onDragOver: ({ active, over }) =>
                          over && over.id !== active.id
                            ? `${title(String(active.id))} is over ${title(String(over.id))}.`
                            : `${title(String(active.id))} is in its place.`,
                        // The move itself is announced by the outline's own live region.
                        onDragEnd: () => undefined,
                        onDragCancel: ({ active }) => `${title(String(active.id))} was not moved.`,
                      },
                    }}
                  >
                    <SortableContext items={module.lessons.map((l) => l.id)} strategy={verticalListSortingStrategy}>
                      <ol aria-label={`Lessons of module ${moduleIndex + 1}`} className="mt-4 space-y-2">
                        {module.lessons.map((lesson, index) => (
                          <LessonRow
                            key={lesson.id}
                            lesson={lesson}
                            moduleIndex={moduleIndex}
                            first={firstIndex + index === 0}
                            last={firstIndex + index === lessonCount - 1}
                            modules={outline}
                            actions={actions}
                          />
                        ))}
                      </ol>
                    </SortableContext>
                  </DndContext>
                  {module.lessons.length === 0 && <p className="mt-3 text-sm text-muted">No lessons yet.</p>}
                  <div className="mt-4">
                    <AddForm
                      id={`new-lesson-${module.id}`}
                      label={`New lesson in module ${moduleIndex + 1}`}
                      button="Add lesson"
                      onAdd={(t) => addLesson(moduleIndex, t)}
                    />
                  </div>
                </section>
              </Card>
            </li>
          );
        })}
      </ol>
      {outline.length === 0 && <p className="text-muted">No modules yet: add the first one.</p>}
      <AddForm id="new-module" label="New module" button="Add module" onAdd={addModule} />
      <div className="flex flex-wrap items-center gap-3 border-t border-line pt-4">
        <Button id="save-outline" aria-disabled={save.isPending} onClick={() => send((stale ?? base).revision)}>
          {save.isPending ? "Saving…" : "Save outline"}
        </Button>
        <p role="status" className="text-sm">
          {status || (unsaved ? "Unsaved changes." : "")}
        </p>
      </div>
    </div>
  );
}

export default function StudioOutlinePage() {
  const draft = useStudioDraft();
  return (
    <StudioSection title="Outline">
      {draft.data && <OutlineEditor key={draft.data.courseId} draft={draft.data} />}
    </StudioSection>
  );
}
