import { useMutation } from "@tanstack/react-query";
import { MailX } from "lucide-react";
import { Link, useSearchParams } from "react-router";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { PageContainer } from "#client/components/ui/misc.tsx";
import { paths } from "#client/config/paths.ts";
import { api, dataOf, refusal } from "#client/lib/api-client.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";

/**
 * The page a question e-mail's unsubscribe links open (one question, or all question e-mail; the signed
 * link says which). Opening it changes nothing, so a mail scanner following links unsubscribes no one.
 */
export default function QuestionUnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  useDocumentMeta({
    title: `Question e-mails | ${BRAND_NAME}`,
    description: `Stop ${BRAND_NAME} e-mails about answers to questions you follow.`,
  });
  const unsubscribe = useMutation({
    mutationFn: () => dataOf(api.POST("/api/questions/unsubscribe", { params: { query: { token } } })),
  });
  return (
    <PageContainer className="max-w-xl py-16 text-center">
      <MailX className="mx-auto text-brand-700" size={44} aria-hidden="true" />
      <h1 className="mt-3 text-3xl font-bold">Question e-mails</h1>
      {unsubscribe.isSuccess ? (
        <p className="mt-3" role="status">
          {unsubscribe.data.message}
        </p>
      ) : (
        <>
          <p className="mt-3 text-muted">
            Stop the e-mails this link is for: about one question you follow, or about every question. Notices in the
            academy still appear.
          </p>
          {unsubscribe.isError && (
            <p role="alert" className="mt-4 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900">
              {refusal(unsubscribe.error, "This unsubscribe link is not valid.")}
            </p>
          )}
          <Button
            className="mt-6"
            onClick={() => unsubscribe.mutate()}
            disabled={!token}
            pending={unsubscribe.isPending}
          >
            Unsubscribe
          </Button>
        </>
      )}
      <div className="mt-6">
        <Link to={paths.home} className={buttonClasses("secondary")}>
          Back to Home
        </Link>
      </div>
    </PageContainer>
  );
}
