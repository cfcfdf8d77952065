import { NodeViewWrapper, type ReactNodeViewProps } from "@tiptap/react";
import { createContext, useContext, useId } from "react";

/** The address the editor shows a media file at (draft uploads by hash, course files by name). */
export const MediaUrlContext = createContext<(name: string) => string>((name) => name);

export const MIN_ALT = 10;

/** What a figure or video still needs before the lesson may be saved; null when nothing. */
export function mediaProblem(type: string, attrs: Record<string, unknown>, position: number): string | null {
  const text = (key: string) => String(attrs[key] ?? "").trim();
  if (type === "figure") {
    if (text("alt").length < MIN_ALT)
      return `Not saved: figure ${position} needs alt text that says what it shows (at least ${MIN_ALT} characters).`;
    if (!text("caption")) return `Not saved: figure ${position} needs a caption.`;
  }
  if (type === "video") {
    if (!text("captions")) return `Not saved: video ${position} needs a captions track (.vtt).`;
    if (text("title").length < 3) return `Not saved: video ${position} needs a title.`;
    if (!text("caption")) return `Not saved: video ${position} needs a caption.`;
  }
  return null;
}

const fieldClass =
  "w-full rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-ink aria-[invalid=true]:border-danger";

function Field(props: {
  label: string;
  value: string;
  error: string | null;
  multiline?: boolean;
  onChange: (value: string) => void;
}) {
  const id = useId();
  const errorId = `${id}-error`;
  const common = {
    id,
    value: props.value,
    "aria-invalid": props.error ? true : undefined,
    "aria-describedby": props.error ? errorId : undefined,
    className: fieldClass,
  };
  return (
    <div className="mt-2">
      <label htmlFor={id} className="block text-xs font-semibold text-slate-800">
        {props.label}
      </label>
      {props.multiline ? (
        <textarea {...common} rows={2} onChange={(e) => props.onChange(e.target.value)} />
      ) : (
        <input {...common} type="text" onChange={(e) => props.onChange(e.target.value)} />
      )}
      {props.error && (
        <p id={errorId} className="mt-1 text-xs font-medium text-danger">
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A figure in the editor: the picture, and its alt text and caption as fields (both required). */
export function FigureView({ node, updateAttributes, deleteNode }: ReactNodeViewProps) {
  const url = useContext(MediaUrlContext);
  const attrs = node.attrs as { src: string; alt: string; caption: string; width: number; height: number };
  const altShort = attrs.alt.trim().length < MIN_ALT;
  return (
    <NodeViewWrapper
      as="figure"
      className="studio-media my-4 rounded-lg border border-slate-300 p-3"
      data-drag-handle=""
    >
      <img
        src={url(attrs.src)}
        alt={attrs.alt}
        width={attrs.width}
        height={attrs.height}
        className="h-auto max-h-64 w-auto max-w-full"
      />
      <div contentEditable={false}>
        <p className="mt-2 text-xs text-muted">Figure: {attrs.src}</p>
        <Field
          label="Alt text (what the figure shows)"
          value={attrs.alt}
          multiline
          error={altShort ? `Say what the figure shows, in at least ${MIN_ALT} characters.` : null}
          onChange={(alt) => updateAttributes({ alt })}
        />
        <Field
          label="Caption"
          value={attrs.caption}
          error={attrs.caption.trim() ? null : "A caption is required."}
          onChange={(caption) => updateAttributes({ caption })}
        />
        <button type="button" onClick={deleteNode} className="mt-2 text-xs font-semibold text-danger underline">
          Remove figure
        </button>
      </div>
    </NodeViewWrapper>
  );
}

/** A video in the editor: its title, captions track and caption (the track is required). */
export function VideoView({ node, updateAttributes, deleteNode }: ReactNodeViewProps) {
  const attrs = node.attrs as { src: string; title: string; captions: string; caption: string };
  return (
    <NodeViewWrapper className="studio-media my-4 rounded-lg border border-slate-300 p-3" data-drag-handle="">
      <div contentEditable={false}>
        <p className="text-sm font-semibold">Video: {attrs.src}</p>
        <p className={`text-xs ${attrs.captions ? "text-muted" : "text-danger"}`}>
          {attrs.captions ? `Captions: ${attrs.captions}` : "No captions track: a video needs one."}
        </p>
        <Field
          label="Title (the video's accessible name)"
          value={attrs.title}
          error={attrs.title.trim().length >= 3 ? null : "A title of at least 3 characters is required."}
          onChange={(title) => updateAttributes({ title })}
        />
        <Field
          label="Caption"
          value={attrs.caption}
          error={attrs.caption.trim() ? null : "A caption is required."}
          onChange={(caption) => updateAttributes({ caption })}
        />
        <button type="button" onClick={deleteNode} className="mt-2 text-xs font-semibold text-danger underline">
          Remove video
        </button>
      </div>
    </NodeViewWrapper>
  );
}
