import { Button } from "#client/components/ui/button.tsx";
import { Card, Spinner } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { useEndSessions, useSessions } from "./api.ts";

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });

/**
 * Profile → Your sessions (docs/decisions/0054): every browser signed in to the account, the current
 * one marked; any other can be signed out, or all of them at once, ending on every server at once.
 */
export function SessionsSection() {
  const sessions = useSessions();
  const end = useEndSessions();
  const toast = useToast();
  const endOne = (id: string | "others", label: string) =>
    end.mutate(id, {
      onSuccess: ({ ended }) => {
        toast({ title: "Signed out", description: `${label}: ${ended} session${ended === 1 ? "" : "s"} ended.` });
        // The button pressed goes with its row (or the list): focus stays in the section, not on the body.
        document.getElementById("sessions-heading")?.focus();
      },
      onError: (failure) => toast({ title: "Not signed out", description: refusal(failure), variant: "destructive" }),
    });
  const others = sessions.data?.filter((s) => !s.current) ?? [];
  return (
    <Card className="mt-6 p-6">
      <h2 id="sessions-heading" tabIndex={-1} className="font-serif text-xl font-bold">
        Your sessions
      </h2>
      {sessions.isPending ? (
        <Spinner label="Loading your sessions" />
      ) : sessions.isError ? (
        <p role="alert" className="mt-2 text-sm text-red-900">
          Your sessions could not be loaded. {refusal(sessions.error)}
        </p>
      ) : (
        <>
          <ul className="mt-4 divide-y divide-border">
            {sessions.data.map((s) => (
              <li key={s.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="text-sm">
                  <p className="font-medium">
                    {s.device}
                    {s.current && <span className="ml-2 rounded bg-brand-50 px-2 py-0.5 text-xs">This browser</span>}
                  </p>
                  <p className="text-muted">
                    Last seen {when(s.lastSeenAt)}
                    {s.ipAddress ? ` · from ${s.ipAddress}` : ""} · signed in {when(s.signedInAt)}
                  </p>
                </div>
                {!s.current && (
                  <Button
                    type="button"
                    variant="secondary"
                    size="sm"
                    pending={end.isPending}
                    onClick={() => endOne(s.id, s.device)}
                    aria-label={`Sign out ${s.device}, last seen ${when(s.lastSeenAt)}`}
                  >
                    Sign out
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {others.length > 0 ? (
            <Button
              type="button"
              variant="secondary"
              className="mt-3"
              pending={end.isPending}
              onClick={() => endOne("others", "Every other session")}
            >
              Sign out all other sessions
            </Button>
          ) : (
            <p className="mt-2 text-sm text-muted">No other browser is signed in.</p>
          )}
        </>
      )}
    </Card>
  );
}
