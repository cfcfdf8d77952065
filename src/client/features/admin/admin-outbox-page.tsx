import { useRef, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card, Skeleton } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { OUTBOX_GROUPS, type OutboxGroup, type OutboxItem } from "#shared/schemas/outbox.ts";
import { AdminLayout } from "./admin-layout.tsx";
import { AdminTable, Pager } from "./admin-table.tsx";
import { useOutbox, useOutboxMessage, useRetryOutboxEmail } from "./api.ts";

const GROUP_LABELS: Record<OutboxGroup, string> = { queued: "Queued", sent: "Sent", failed: "Failed" };

const when = (iso: string | null) =>
  iso
    ? `${new Date(iso).toLocaleString("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" })} UTC`
    : "";

function statusText(item: OutboxItem): string {
  const tries = `${item.attempts} attempt${item.attempts === 1 ? "" : "s"}`;
  if (item.status === "sent") return `Sent ${when(item.sentAt)} (${tries})`;
  if (item.status === "skipped") return "Not sent: unsubscribed";
  if (item.status === "sending") return "Sending now";
  if (item.status === "failed") return `Failed after ${tries}`;
  return item.attempts === 0 ? "Waiting to be sent" : `Next attempt ${when(item.nextAttemptAt)} (${tries} so far)`;
}

/** Every message the academy sends: what waits, what went, what failed and why; one message as sent; retry. */
export default function AdminOutboxPage() {
  const [group, setGroup] = useState<OutboxGroup>("queued");
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);
  const list = useOutbox(group, page);
  const retry = useRetryOutboxEmail();
  const toast = useToast();
  const listHeading = useRef<HTMLHeadingElement>(null);

  const choose = (next: OutboxGroup) => {
    setGroup(next);
    setPage(1);
    setOpenId(null);
  };

  const retryMessage = async (item: OutboxItem) => {
    try {
      await retry.mutateAsync(item.id);
      toast({ title: "Message Queued Again", description: `The message to ${item.toAddress} will be sent shortly.` });
    } catch (error) {
      toast({ title: "Retry Failed", description: refusal(error), variant: "destructive" });
    }
    // The row leaves this list: focus goes to the list's heading, not to the page's body.
    listHeading.current?.focus();
  };

  const close = () => {
    const id = openId;
    setOpenId(null);
    // Back to the button that opened it.
    if (id) document.getElementById(`outbox-view-${id}`)?.focus();
  };

  return (
    <AdminLayout title="Outbox">
      <fieldset className="flex flex-wrap items-center gap-2">
        <legend className="sr-only">Which messages</legend>
        {OUTBOX_GROUPS.map((g) => (
          <Button
            key={g}
            size="sm"
            variant={g === group ? "primary" : "secondary"}
            aria-pressed={g === group}
            onClick={() => choose(g)}
          >
            {GROUP_LABELS[g]}
            {list.data ? ` (${list.data.counts[g]})` : ""}
          </Button>
        ))}
      </fieldset>
      <h2 ref={listHeading} tabIndex={-1} className="mt-6 font-serif text-xl font-bold">
        {GROUP_LABELS[group]} messages
      </h2>
      {list.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          The outbox could not be loaded: {refusal(list.error)}
        </p>
      ) : (
        <div className="mt-3">
          <AdminTable<OutboxItem>
            caption={`${GROUP_LABELS[group]} messages`}
            rows={list.data?.items}
            rowKey={(item) => item.id}
            rowTestId={(item) => `outbox-${item.id}`}
            empty={
              group === "failed"
                ? "No message has failed."
                : group === "sent"
                  ? "No message sent yet."
                  : "Nothing waits to be sent."
            }
            columns={[
              { header: "Queued", cell: (item) => when(item.createdAt), className: "md:whitespace-nowrap" },
              { header: "To", cell: (item) => item.toAddress, className: "wrap-anywhere" },
              {
                header: "Message",
                cell: (item) => (
                  <>
                    {item.subject ?? item.template}
                    <span className="block font-mono text-xs text-muted">{item.template}</span>
                  </>
                ),
              },
              {
                header: "Status",
                cell: (item) => (
                  <>
                    {statusText(item)}
                    {item.lastError && <span className="block text-xs text-red-700">{item.lastError}</span>}
                  </>
                ),
              },
              {
                header: "Actions",
                hideHeader: true,
                cell: (item) => (
                  <span className="flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      variant="secondary"
                      id={`outbox-view-${item.id}`}
                      aria-expanded={openId === item.id}
                      aria-controls="outbox-message"
                      onClick={() => setOpenId(openId === item.id ? null : item.id)}
                    >
                      View<span className="sr-only"> the message to {item.toAddress}</span>
                    </Button>
                    {(item.status === "failed" || (item.status === "queued" && item.attempts > 0)) && (
                      <Button
                        size="sm"
                        pending={retry.isPending && retry.variables === item.id}
                        onClick={() => void retryMessage(item)}
                      >
                        Retry<span className="sr-only"> the message to {item.toAddress}</span>
                      </Button>
                    )}
                  </span>
                ),
              },
            ]}
          />
          {list.data && list.data.total > 0 && (
            <Pager page={list.data.page} pageSize={list.data.pageSize} total={list.data.total} onPage={setPage} />
          )}
        </div>
      )}
      {openId && <MessagePanel id={openId} onClose={close} />}
    </AdminLayout>
  );
}

function MessagePanel({ id, onClose }: { id: string; onClose: () => void }) {
  const message = useOutboxMessage(id);
  const m = message.data;
  return (
    <Card id="outbox-message" className="mt-6 p-4">
      <h2
        tabIndex={-1}
        ref={(el) => {
          el?.focus();
        }}
        className="font-serif text-xl font-bold"
      >
        {m ? (m.subject ?? m.template) : "Message"}
      </h2>
      {message.isPending ? (
        <Skeleton className="mt-3 h-60" />
      ) : message.isError ? (
        <p role="alert" className="mt-3 text-sm text-red-700">
          The message could not be loaded: {refusal(message.error)}
        </p>
      ) : m ? (
        <>
          <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
            <dt className="font-semibold">To</dt>
            <dd className="wrap-anywhere">{m.toAddress}</dd>
            <dt className="font-semibold">Status</dt>
            <dd>{statusText(m)}</dd>
            {m.lastError && (
              <>
                <dt className="font-semibold">Last error</dt>
                <dd className="wrap-anywhere">{m.lastError}</dd>
              </>
            )}
          </dl>
          {m.html === null ? (
            <p className="mt-3 text-sm text-muted">This message's template can no longer render it.</p>
          ) : (
            <>
              <h3 className="mt-4 font-semibold">As HTML</h3>
              <iframe
                title={`The message as HTML: ${m.subject ?? m.template}`}
                srcDoc={m.html}
                sandbox=""
                className="mt-2 h-96 w-full rounded-md border border-line bg-white"
              />
              <h3 className="mt-4 font-semibold">As plain text</h3>
              {/* Wrapped, never scrolled: the whole text reads without a scroll region. */}
              <pre className="mt-2 rounded-md border border-line p-3 text-sm wrap-anywhere whitespace-pre-wrap">
                {m.text}
              </pre>
            </>
          )}
        </>
      ) : null}
      <Button size="sm" variant="secondary" className="mt-4" onClick={onClose}>
        Close the message
      </Button>
    </Card>
  );
}
