import { useEffect } from "react";
import { Link } from "react-router";
import { PageContainer, Skeleton } from "#client/components/ui/misc.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { formatLongDate } from "#shared/format.ts";
import { lessonQuestionPath, useNotifications, useReadNotifications } from "./pages-api.ts";

const WHAT = { answer: "New answer", accepted: "Answer accepted" } as const;

/** What is new for the signed-in person: answers to and accepted answers on the questions they follow. */
export default function NotificationsPage() {
  useDocumentMeta({ title: `What's New | ${BRAND_NAME}`, description: "Answers to the questions you follow." });
  const notices = useNotifications();
  const read = useReadNotifications();
  const unread = notices.data?.unread ?? 0;
  const markRead = read.mutate;
  // Seen once this page shows them: the avatar's count goes, while the list still marks what was new.
  useEffect(() => {
    if (unread > 0) markRead();
  }, [unread, markRead]);
  return (
    <PageContainer className="max-w-3xl py-10">
      <h1 className="font-serif text-3xl font-bold">What's new</h1>
      <p className="mt-2 text-sm text-muted">Answers to the questions you follow, newest first.</p>
      {notices.isPending ? (
        <Skeleton className="mt-6 h-40" />
      ) : notices.isError ? (
        <p role="alert" className="mt-6">
          {refusal(notices.error)}
        </p>
      ) : notices.data.items.length === 0 ? (
        <p className="mt-6">Nothing new yet. Follow a question on a lesson to hear when it is answered.</p>
      ) : (
        <ul className="mt-6 space-y-2" aria-label="Notices">
          {notices.data.items.map((n) => (
            <li key={n.id} className="rounded-lg border border-line p-3" data-testid="notice">
              <p className="text-sm">
                {n.read ? null : (
                  <span className="mr-2 rounded bg-red-700 px-1.5 py-0.5 text-xs font-bold text-white">New</span>
                )}
                <span className="font-medium">{WHAT[n.kind]}</span> · {formatLongDate(n.createdAt)}
              </p>
              <Link to={lessonQuestionPath(n.courseId, n.lessonId, n.questionId)} className="text-brand-800 underline">
                {n.questionTitle}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </PageContainer>
  );
}
