import { type Editor, EditorContent, ReactNodeViewRenderer, useEditor, useEditorState } from "@tiptap/react";
import { diffWords } from "diff";
import {
  BetweenHorizontalEnd,
  BetweenVerticalEnd,
  Heading2,
  Heading3,
  Image,
  Italic,
  Link as LinkIcon,
  List,
  ListOrdered,
  MessageSquareQuote,
  Table,
  TableColumnsSplit,
  TableRowsSplit,
  Video,
} from "lucide-react";
import { type FormEvent, useId, useMemo, useRef, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { api, dataOf, refusal } from "#client/lib/api-client.ts";
import { type Lesson, type Media, readBackup, type SaveState, useLessonAutosave } from "./lesson-autosave.ts";
import { cleanPastedHtml, FigureBlock, isSafeHref, lessonExtensions, VideoBlock } from "./lesson-extensions.ts";
import { FigureView, MediaUrlContext, mediaProblem, VideoView } from "./lesson-media-views.tsx";
import { Toolbar, type ToolbarButton } from "./studio-toolbar.tsx";

/** How many columns the table around the selection has (0 outside a table). */
function columnsOf(editor: Editor | null): number {
  const $from = editor?.state.selection.$from;
  if (!$from) return 0;
  for (let depth = $from.depth; depth > 0; depth--)
    if ($from.node(depth).type.name === "table") return $from.node(depth).firstChild?.childCount ?? 0;
  return 0;
}

/** A file's name as the course's media folder takes it: lowercase words and its extension. */
export function mediaName(fileName: string): string {
  const dot = fileName.lastIndexOf(".");
  const ext = fileName.slice(dot + 1).toLowerCase();
  const stem =
    fileName
      .slice(0, dot > 0 ? dot : undefined)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "") || "file";
  return `${stem}.${ext}`;
}

async function upload(courseId: string, file: File): Promise<Media> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return dataOf(
    api.POST("/api/studio/courses/{courseId}/media", {
      params: { path: { courseId } },
      body: { name: mediaName(file.name), data: btoa(binary) },
    }),
  );
}

async function imageSize(file: File): Promise<{ width: number; height: number }> {
  const url = URL.createObjectURL(file);
  try {
    const img = new window.Image();
    img.src = url;
    await img.decode();
    const scale = Math.min(1, 1200 / Math.max(img.naturalWidth, 1));
    return {
      width: Math.max(16, Math.round(img.naturalWidth * scale)),
      height: Math.max(16, Math.round(img.naturalHeight * scale)),
    };
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** The first figure or video that still lacks what the lesson page needs. */
function firstMediaProblem(editor: Editor): string | null {
  let problem: string | null = null;
  const counts = { figure: 0, video: 0 };
  editor.state.doc.descendants((node) => {
    if (problem) return false;
    const type = node.type.name;
    if (type === "figure" || type === "video") {
      counts[type] += 1;
      problem = mediaProblem(type, node.attrs, counts[type]);
    }
    return true;
  });
  return problem;
}

function SaveStatus({ state, onRetry, statusId }: { state: SaveState; onRetry: () => void; statusId: string }) {
  const text =
    state.kind === "saved"
      ? "Saved"
      : state.kind === "saving"
        ? "Saving…"
        : state.kind === "pending"
          ? "Unsaved changes"
          : state.kind === "blocked"
            ? state.message
            : state.kind === "failed"
              ? "Not saved"
              : "Not saved: someone else saved this lesson";
  return (
    <div className="mt-2 flex flex-wrap items-center gap-3 text-sm">
      <p
        id={statusId}
        role="status"
        className={
          state.kind === "failed" || state.kind === "blocked" || state.kind === "conflict"
            ? "font-semibold text-danger"
            : "text-muted"
        }
      >
        {text}
      </p>
      {state.kind === "failed" && (
        <>
          <span className="text-muted">{state.message}</span>
          <Button size="sm" variant="secondary" onClick={onRetry}>
            Retry
          </Button>
        </>
      )}
    </div>
  );
}

/** Their lesson beside the author's: the words each added and removed. */
function ConflictPanel({
  mine,
  theirs,
  onKeepMine,
  onTakeTheirs,
}: {
  mine: Lesson;
  theirs: Lesson | null;
  onKeepMine: () => void;
  onTakeTheirs: () => void;
}) {
  const headingId = useId();
  const parts = useMemo(() => diffWords(theirs?.body ?? "", mine.body), [mine, theirs]);
  return (
    <section
      aria-labelledby={headingId}
      className="mt-4 rounded-lg border-2 border-amber-500 bg-amber-50 p-4"
      data-testid="lesson-conflict"
    >
      <h2 id={headingId} className="text-lg font-bold" tabIndex={-1}>
        Someone else saved this lesson while you were writing
      </h2>
      <p className="mt-1 text-sm">
        {theirs
          ? "Your text is kept here. Below, words only in their version are struck through and words only in yours are underlined. Choose which version to keep; you can copy from the other first."
          : "They removed this lesson from the draft. Keep yours to put it back."}
      </p>
      <pre className="mt-3 max-h-72 overflow-auto whitespace-pre-wrap rounded-md border border-slate-300 bg-white p-3 text-sm">
        {parts.map((p, i) =>
          p.added ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: a diff's parts have no identity but their order
            <ins key={i} className="bg-green-100 underline">
              {p.value}
            </ins>
          ) : p.removed ? (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above
            <del key={i} className="bg-red-100">
              {p.value}
            </del>
          ) : (
            // biome-ignore lint/suspicious/noArrayIndexKey: as above
            <span key={i}>{p.value}</span>
          ),
        )}
      </pre>
      <div className="mt-3 flex flex-wrap gap-2">
        <Button onClick={onKeepMine}>Keep my version</Button>
        {theirs && (
          <Button variant="secondary" onClick={onTakeTheirs}>
            Use their version
          </Button>
        )}
      </div>
    </section>
  );
}

type Panel = "link" | "figure" | "video" | null;

/**
 * The lesson editor (docs/decisions/0060, "Editors"): the lesson's title and its text as a rich-text
 * editor over the course files' Markdown, autosaved one lesson at a time.
 */
export function LessonEditor({
  courseId,
  lesson,
  revision,
  mediaUrl,
}: {
  courseId: string;
  lesson: Lesson;
  revision: number;
  mediaUrl: (name: string) => string;
}) {
  const backup = useMemo(() => {
    const kept = readBackup(courseId, lesson.id);
    return kept && JSON.stringify(kept.lesson) !== JSON.stringify(lesson) ? kept : null;
  }, [courseId, lesson]);
  const autosave = useLessonAutosave(courseId, { revision, lesson });
  const [title, setTitle] = useState(String((backup?.lesson ?? lesson).meta.title ?? ""));
  const [panel, setPanel] = useState<Panel>(null);
  const statusId = useId();
  const editorId = useId();
  const titleRef = useRef(title);
  const pendingMedia = useRef<Media[]>(backup?.media ?? []);
  const [restored, setRestored] = useState(backup !== null);

  const lessonFrom = (editor: Editor): Lesson => ({
    ...lesson,
    format: "md",
    meta: { ...lesson.meta, title: titleRef.current },
    body: `${editor.getMarkdown().trimEnd()}\n`,
  });
  const changed = (editor: Editor) => {
    const added = pendingMedia.current;
    pendingMedia.current = [];
    autosave.change(lessonFrom(editor), firstMediaProblem(editor), added);
  };

  const editor = useEditor({
    extensions: lessonExtensions({
      figure: FigureBlock.extend({ addNodeView: () => ReactNodeViewRenderer(FigureView) }),
      video: VideoBlock.extend({ addNodeView: () => ReactNodeViewRenderer(VideoView) }),
    }),
    content: (backup?.lesson ?? lesson).body,
    contentType: lesson.format === "md" ? "markdown" : "html",
    immediatelyRender: false,
    editorProps: {
      attributes: {
        id: editorId,
        role: "textbox",
        "aria-multiline": "true",
        "aria-label": "Lesson text",
        "aria-describedby": statusId,
        "aria-keyshortcuts": "Alt+F10",
        class: "lesson-prose studio-editor min-h-80 rounded-b-lg border border-slate-300 bg-white p-4",
      },
      transformPastedHTML: cleanPastedHtml,
      // Alt+F10 reaches the toolbar from anywhere in the text (Shift+Tab moves between a table's cells).
      handleKeyDown: (_view, event) => {
        if (!(event.altKey && event.key === "F10")) return false;
        document.querySelector<HTMLElement>(`[aria-controls="${editorId}"] [tabindex="0"]`)?.focus();
        return true;
      },
    },
    onCreate: ({ editor: e }) => {
      if (backup) changed(e);
    },
    onUpdate: ({ editor: e }) => changed(e),
  });

  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      h2: e?.isActive("heading", { level: 2 }) ?? false,
      h3: e?.isActive("heading", { level: 3 }) ?? false,
      bullet: e?.isActive("bulletList") ?? false,
      ordered: e?.isActive("orderedList") ?? false,
      bold: e?.isActive("bold") ?? false,
      italic: e?.isActive("italic") ?? false,
      link: e?.isActive("link") ?? false,
      quote: e?.isActive("blockquote") ?? false,
      // A table keeps its header row and one column: those cannot be deleted.
      addRow: e?.can().addRowAfter() ?? false,
      deleteRow: (e?.can().deleteRow() ?? false) && !e?.isActive("tableHeader"),
      addColumn: e?.can().addColumnAfter() ?? false,
      deleteColumn: (e?.can().deleteColumn() ?? false) && columnsOf(e) > 1,
    }),
  });

  if (!editor) return null;
  const chain = () => editor.chain().focus();
  const buttons: ToolbarButton[] = [
    {
      id: "h2",
      label: "Heading",
      icon: <Heading2 aria-hidden="true" />,
      pressed: active?.h2,
      onPress: () => chain().toggleHeading({ level: 2 }).run(),
    },
    {
      id: "h3",
      label: "Subheading",
      icon: <Heading3 aria-hidden="true" />,
      pressed: active?.h3,
      onPress: () => chain().toggleHeading({ level: 3 }).run(),
    },
    {
      id: "bullet",
      label: "Bulleted list",
      icon: <List aria-hidden="true" />,
      pressed: active?.bullet,
      onPress: () => chain().toggleBulletList().run(),
    },
    {
      id: "ordered",
      label: "Numbered list",
      icon: <ListOrdered aria-hidden="true" />,
      pressed: active?.ordered,
      onPress: () => chain().toggleOrderedList().run(),
    },
    {
      id: "bold",
      label: "Bold",
      icon: <span className="font-extrabold">B</span>,
      pressed: active?.bold,
      onPress: () => chain().toggleBold().run(),
    },
    {
      id: "italic",
      label: "Italic",
      icon: <Italic aria-hidden="true" />,
      pressed: active?.italic,
      onPress: () => chain().toggleItalic().run(),
    },
    {
      id: "link",
      label: "Link",
      icon: <LinkIcon aria-hidden="true" />,
      pressed: active?.link,
      onPress: () => setPanel("link"),
    },
    {
      id: "table",
      label: "Insert table",
      icon: <Table aria-hidden="true" />,
      onPress: () => chain().insertTable({ rows: 3, cols: 3, withHeaderRow: true }).run(),
    },
    // The table's buttons leave focus on themselves (no focus()), so a row or column can be added again.
    {
      id: "add-row",
      label: "Add table row below",
      icon: <BetweenHorizontalEnd aria-hidden="true" />,
      disabled: !active?.addRow,
      onPress: () => editor.chain().addRowAfter().run(),
    },
    {
      id: "delete-row",
      label: "Delete table row",
      icon: <TableRowsSplit aria-hidden="true" />,
      disabled: !active?.deleteRow,
      onPress: () => editor.chain().deleteRow().run(),
    },
    {
      id: "add-column",
      label: "Add table column to the right",
      icon: <BetweenVerticalEnd aria-hidden="true" />,
      disabled: !active?.addColumn,
      onPress: () => editor.chain().addColumnAfter().run(),
    },
    {
      id: "delete-column",
      label: "Delete table column",
      icon: <TableColumnsSplit aria-hidden="true" />,
      disabled: !active?.deleteColumn,
      onPress: () => editor.chain().deleteColumn().run(),
    },
    {
      id: "callout",
      label: "Callout",
      icon: <MessageSquareQuote aria-hidden="true" />,
      pressed: active?.quote,
      onPress: () => chain().toggleBlockquote().run(),
    },
    { id: "figure", label: "Insert figure", icon: <Image aria-hidden="true" />, onPress: () => setPanel("figure") },
    { id: "video", label: "Insert video", icon: <Video aria-hidden="true" />, onPress: () => setPanel("video") },
  ];
  const close = () => {
    setPanel(null);
    editor.commands.focus();
  };
  const state = autosave.state;

  return (
    <MediaUrlContext.Provider value={mediaUrl}>
      <div className="max-w-3xl">
        {restored && (
          <p role="status" className="mb-3 rounded-md border border-sky-300 bg-sky-50 p-2 text-sm">
            Your unsaved changes to this lesson were kept in this browser and are back in the editor.{" "}
            <button type="button" className="font-semibold underline" onClick={() => setRestored(false)}>
              Dismiss
            </button>
          </p>
        )}
        <label htmlFor={`${editorId}-title`} className="block text-sm font-medium text-slate-800">
          Lesson title
        </label>
        <input
          id={`${editorId}-title`}
          className="mb-4 h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base"
          value={title}
          onChange={(e) => {
            setTitle(e.target.value);
            titleRef.current = e.target.value;
            changed(editor);
          }}
        />
        <Toolbar label="Formatting" buttons={buttons} controls={editorId} />
        {panel === "link" && <LinkForm editor={editor} onClose={close} />}
        {panel === "figure" && (
          <FigureForm
            courseId={courseId}
            onClose={close}
            onInsert={(media, attrs) => {
              pendingMedia.current = [...pendingMedia.current, media];
              chain().insertContent({ type: "figure", attrs }).run();
              close();
            }}
          />
        )}
        {panel === "video" && (
          <VideoForm
            courseId={courseId}
            onClose={close}
            onInsert={(media, attrs) => {
              pendingMedia.current = [...pendingMedia.current, ...media];
              chain().insertContent({ type: "video", attrs }).run();
              close();
            }}
          />
        )}
        <EditorContent editor={editor} />
        <SaveStatus state={state} statusId={statusId} onRetry={() => void autosave.save()} />
        {state.kind === "conflict" && (
          <ConflictPanel
            mine={autosave.mine()}
            theirs={state.theirs}
            onKeepMine={() => {
              autosave.resolve("mine", state.revision, state.theirs);
              editor.commands.focus();
            }}
            onTakeTheirs={() => {
              const theirs = state.theirs;
              if (!theirs) return;
              autosave.resolve("theirs", state.revision, theirs);
              titleRef.current = String(theirs.meta.title ?? "");
              setTitle(titleRef.current);
              editor.commands.setContent(theirs.body, { contentType: "markdown", emitUpdate: false });
              editor.commands.focus();
            }}
          />
        )}
      </div>
    </MediaUrlContext.Provider>
  );
}

const panelClass = "rounded-none border border-b-0 border-slate-300 bg-white p-3";

function LinkForm({ editor, onClose }: { editor: Editor; onClose: () => void }) {
  const [href, setHref] = useState(String(editor.getAttributes("link").href ?? "https://"));
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!isSafeHref(href)) {
      setError("A link starts with https://, http://, mailto: or / (a page of the academy).");
      return;
    }
    editor.chain().focus().extendMarkRange("link").setLink({ href: href.trim() }).run();
    onClose();
  };
  return (
    <form onSubmit={submit} className={panelClass} aria-label="Link">
      <label htmlFor={id} className="block text-sm font-medium">
        Link address
      </label>
      <input
        id={id}
        // biome-ignore lint/a11y/noAutofocus: the author asked for this field by pressing Link
        autoFocus
        className="h-10 w-full rounded-md border border-slate-300 px-2"
        value={href}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(e) => setHref(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === "Escape") onClose();
        }}
      />
      {error && (
        <p id={`${id}-error`} className="mt-1 text-sm text-danger">
          {error}
        </p>
      )}
      <div className="mt-2 flex gap-2">
        <Button size="sm" type="submit">
          Apply link
        </Button>
        <Button
          size="sm"
          variant="secondary"
          onClick={() => {
            editor.chain().focus().extendMarkRange("link").unsetLink().run();
            onClose();
          }}
        >
          Remove link
        </Button>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function FigureForm({
  courseId,
  onInsert,
  onClose,
}: {
  courseId: string;
  onInsert: (media: Media, attrs: Record<string, unknown>) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [alt, setAlt] = useState("");
  const [caption, setCaption] = useState("");
  const [error, setError] = useState<{ field: "file" | "alt" | "caption" | "form"; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const refuse = (field: "file" | "alt" | "caption" | "form", message: string) => {
      setError({ field, message });
      document.getElementById(`${id}-${field === "form" ? "file" : field}`)?.focus();
    };
    if (!file) return refuse("file", "Choose an image (SVG, PNG, JPEG or WebP).");
    if (alt.trim().length < 10) return refuse("alt", "Say what the figure shows, in at least 10 characters.");
    if (!caption.trim()) return refuse("caption", "A caption is required.");
    setBusy(true);
    try {
      const [media, size] = await Promise.all([upload(courseId, file), imageSize(file)]);
      onInsert(media, { src: media.name, alt: alt.trim(), caption: caption.trim(), ...size });
    } catch (failure) {
      refuse("form", refusal(failure, "The image could not be uploaded. Try again."));
    } finally {
      setBusy(false);
    }
  };
  const err = (field: string) =>
    error?.field === field || (field === "file" && error?.field === "form")
      ? { "aria-invalid": true, "aria-describedby": `${id}-error` }
      : {};
  return (
    <form onSubmit={submit} className={panelClass} aria-label="Insert figure">
      <label htmlFor={`${id}-file`} className="block text-sm font-medium">
        Image file
      </label>
      <input
        id={`${id}-file`}
        type="file"
        accept=".svg,.png,.jpg,.jpeg,.webp,image/svg+xml,image/png,image/jpeg,image/webp"
        onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        {...err("file")}
      />
      <label htmlFor={`${id}-alt`} className="mt-2 block text-sm font-medium">
        Alt text (what the figure shows)
      </label>
      <textarea
        id={`${id}-alt`}
        rows={2}
        className="w-full rounded-md border border-slate-300 px-2"
        value={alt}
        onChange={(e) => setAlt(e.target.value)}
        {...err("alt")}
      />
      <label htmlFor={`${id}-caption`} className="mt-2 block text-sm font-medium">
        Caption
      </label>
      <input
        id={`${id}-caption`}
        className="h-10 w-full rounded-md border border-slate-300 px-2"
        value={caption}
        onChange={(e) => setCaption(e.target.value)}
        {...err("caption")}
      />
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-danger">
          {error.message}
        </p>
      )}
      <div className="mt-2 flex gap-2">
        <Button size="sm" type="submit" pending={busy}>
          {busy ? "Uploading…" : "Insert figure"}
        </Button>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function VideoForm({
  courseId,
  onInsert,
  onClose,
}: {
  courseId: string;
  onInsert: (media: Media[], attrs: Record<string, unknown>) => void;
  onClose: () => void;
}) {
  const id = useId();
  const [video, setVideo] = useState<File | null>(null);
  const [url, setUrl] = useState("");
  const [captions, setCaptions] = useState<File | null>(null);
  const [title, setTitle] = useState("");
  const [caption, setCaption] = useState("");
  const [error, setError] = useState<{ field: string; message: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const refuse = (field: string, message: string) => {
      setError({ field, message });
      document.getElementById(`${id}-${field}`)?.focus();
    };
    if (!video && !/^https:\/\/\S+\.(mp4|webm)$/i.test(url.trim()))
      return refuse("file", "Choose an MP4 or WebM file, or give its https address ending .mp4 or .webm.");
    if (!captions) return refuse("captions", "A video needs a captions track: choose its WebVTT (.vtt) file.");
    if (title.trim().length < 3) return refuse("title", "Give the video a title of at least 3 characters.");
    if (!caption.trim()) return refuse("caption", "A caption is required.");
    setBusy(true);
    try {
      const track = await upload(courseId, captions);
      const file = video ? await upload(courseId, video) : null;
      onInsert(file ? [file, track] : [track], {
        src: file ? file.name : url.trim(),
        captions: track.name,
        title: title.trim(),
        caption: caption.trim(),
        width: 640,
        height: 360,
      });
    } catch (failure) {
      refuse("file", refusal(failure, "The files could not be uploaded. Try again."));
    } finally {
      setBusy(false);
    }
  };
  const err = (field: string) =>
    error?.field === field ? { "aria-invalid": true, "aria-describedby": `${id}-error` } : {};
  const label = "mt-2 block text-sm font-medium";
  return (
    <form onSubmit={submit} className={panelClass} aria-label="Insert video">
      <label htmlFor={`${id}-file`} className={label}>
        Video file (MP4 or WebM)
      </label>
      <input
        id={`${id}-file`}
        type="file"
        accept=".mp4,.webm,video/mp4,video/webm"
        onChange={(e) => setVideo(e.target.files?.[0] ?? null)}
        {...err("file")}
      />
      <label htmlFor={`${id}-url`} className={label}>
        Or its https address
      </label>
      <input
        id={`${id}-url`}
        className="h-10 w-full rounded-md border border-slate-300 px-2"
        value={url}
        onChange={(e) => setUrl(e.target.value)}
      />
      <label htmlFor={`${id}-captions`} className={label}>
        Captions track (.vtt, required)
      </label>
      <input
        id={`${id}-captions`}
        type="file"
        accept=".vtt,text/vtt"
        onChange={(e) => setCaptions(e.target.files?.[0] ?? null)}
        {...err("captions")}
      />
      <label htmlFor={`${id}-title`} className={label}>
        Title (the video's accessible name)
      </label>
      <input
        id={`${id}-title`}
        className="h-10 w-full rounded-md border border-slate-300 px-2"
        value={title}
        onChange={(e) => setTitle(e.target.value)}
        {...err("title")}
      />
      <label htmlFor={`${id}-caption`} className={label}>
        Caption
      </label>
      <input
        id={`${id}-caption`}
        className="h-10 w-full rounded-md border border-slate-300 px-2"
        value={caption}
        onChange={(e) => setCaption(e.target.value)}
        {...err("caption")}
      />
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-1 text-sm text-danger">
          {error.message}
        </p>
      )}
      <div className="mt-2 flex gap-2">
        <Button size="sm" type="submit" pending={busy}>
          {busy ? "Uploading…" : "Insert video"}
        </Button>
        <Button size="sm" variant="ghost" onClick={onClose}>
          Cancel
        </Button>
      </div>
    </form>
  );
}
