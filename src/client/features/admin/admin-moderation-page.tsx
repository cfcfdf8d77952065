import { type FormEvent, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, TextField, useFormError } from "#client/components/ui/form.tsx";
import { Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { formatLongDate } from "#shared/format.ts";
import type { ModerationQueue } from "#shared/schemas/questions.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { useModerate, useModerationQueue, useSetPosting } from "./api.ts";

type Post = ModerationQueue["items"][number];
const REASONS = {
  spam: "Spam",
  abuse: "Abuse",
  "off-topic": "Off topic",
  "unsafe-advice": "Unsafe advice",
  other: "Other",
} as const;

/** Stops (or lets again) the post's author post questions and answers; the reason is e-mailed to them. */
function PostingForm({ post }: { post: Post }) {
  const toast = useToast();
  const posting = useSetPosting();
  const error = useFormError<"reason">();
  const [reason, setReason] = useState("");
  const submit = (suspended: boolean) => async (event?: FormEvent) => {
    event?.preventDefault();
    if (!post.authorId) return;
    if (!reason.trim()) return error.show("Say why: the learner is told.", "reason");
    try {
      await posting.mutateAsync({ userId: post.authorId, suspended, reason });
      error.clear();
      setReason("");
      toast({ title: suspended ? "Posting Suspended" : "Posting Allowed Again", description: post.author.name });
    } catch (failure) {
      error.show(refusal(failure), "reason");
    }
  };
  if (!post.authorId || post.author.badge) return null;
  return (
    <form onSubmit={submit(true)} noValidate className="mt-3 space-y-2 border-t border-line pt-3">
      <FormError id={error.errorId} message={error.message} />
      <TextField
        {...error.field("reason")}
        label={`Why ${post.author.name} may not post (sent to them)`}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        maxLength={500}
      />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" variant="danger" pending={posting.isPending}>
          Suspend posting
        </Button>
        <Button size="sm" variant="secondary" onClick={() => void submit(false)()} pending={posting.isPending}>
          Lift suspension
        </Button>
      </div>
    </form>
  );
}

function PostCard({ post, state, onState }: { post: Post; state: Post["state"]; onState: (s: Post["state"]) => void }) {
  const toast = useToast();
  const moderate = useModerate();
  const act = (action: "hide" | "restore") =>
    moderate.mutate(
      { postId: post.postId, action },
      {
        onSuccess: (result) => {
          onState(result.state);
          toast({ title: action === "hide" ? "Post Hidden" : "Post Visible", description: post.title });
        },
        onError: (failure) => toast({ title: "Not Changed", description: refusal(failure), variant: "destructive" }),
      },
    );
  return (
    <li className="rounded-lg border border-line p-4" data-testid="moderation-item">
      <p className="text-xs font-semibold tracking-wide text-muted uppercase">
        {post.kind === "question" ? "Question" : "Answer"} · {post.courseId} ·{" "}
        {state === "held" ? "Waiting for moderation" : state === "hidden" ? "Hidden" : "Visible"}
      </p>
      <h2 className="mt-1 font-semibold">{post.title}</h2>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised with an allow-list on the server (decision 0056). */}
      <div className="prose-lesson mt-1 text-sm" dangerouslySetInnerHTML={{ __html: post.html }} />
      <p className="mt-1 text-xs text-muted">
        {post.author.name} · {formatLongDate(post.createdAt)}
      </p>
      {post.reports.length > 0 ? (
        <ul className="mt-2 list-disc pl-5 text-sm" aria-label="Reports">
          {post.reports.map((r) => (
            <li key={`${r.createdAt}-${r.reason}`}>
              {REASONS[r.reason]}
              {r.note ? `: ${r.note}` : ""} ({formatLongDate(r.createdAt)})
            </li>
          ))}
        </ul>
      ) : null}
      <div className="mt-3 flex flex-wrap gap-2">
        {state !== "hidden" ? (
          <Button size="sm" variant="danger" onClick={() => act("hide")} pending={moderate.isPending}>
            Hide<span className="sr-only">: {post.title}</span>
          </Button>
        ) : null}
        {state !== "visible" ? (
          <Button size="sm" variant="secondary" onClick={() => act("restore")} pending={moderate.isPending}>
            {state === "held" ? "Approve" : "Restore"}
            <span className="sr-only">: {post.title}</span>
          </Button>
        ) : null}
      </div>
      <PostingForm post={post} />
    </li>
  );
}

/**
 * Reported posts and new accounts' first posts with links, oldest first: hide, restore or approve each,
 * and suspend its author from posting. A post acted on stays on the page until it is left, so it can be undone.
 */
export default function AdminModerationPage() {
  const queue = useModerationQueue();
  const [acted, setActed] = useState<Map<string, { post: Post; state: Post["state"] }>>(new Map());
  const posts = [...(queue.data?.items ?? [])];
  for (const { post } of acted.values()) if (!posts.some((p) => p.postId === post.postId)) posts.push(post);
  posts.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return (
    <AdminLayout title="Moderation">
      <p className="max-w-3xl text-sm text-muted">
        Questions and answers learners reported, and new accounts' first posts with links, which wait here before anyone
        else sees them. A hidden post is gone for everyone at once.
      </p>
      {queue.isPending ? (
        <Skeleton className="mt-6 h-40" />
      ) : queue.isError ? (
        <p role="alert" className="mt-6">
          {refusal(queue.error)}
        </p>
      ) : posts.length === 0 ? (
        <p className="mt-6">Nothing to moderate.</p>
      ) : (
        <ul className="mt-6 space-y-3">
          {posts.map((post) => (
            <PostCard
              key={post.postId}
              post={post}
              state={acted.get(post.postId)?.state ?? post.state}
              onState={(state) => setActed((current) => new Map(current).set(post.postId, { post, state }))}
            />
          ))}
        </ul>
      )}
    </AdminLayout>
  );
}
