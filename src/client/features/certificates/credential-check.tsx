import { useQuery } from "@tanstack/react-query";
import { BadgeCheck, Download, ShieldAlert } from "lucide-react";
import { useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { Card } from "#client/components/ui/misc.tsx";
import { useCurrentUser } from "#client/lib/session.ts";
import { certificatesQueryOptions, downloadCredential, useCredentialCheck } from "./api.ts";

/** The server's check of the signed Open Badges credential, and the holder's download of it. */
export function CredentialCheckPanel({ certificateId }: { certificateId: string }) {
  const check = useCredentialCheck(certificateId);
  const { isAuthenticated } = useCurrentUser();
  const own = useQuery({ ...certificatesQueryOptions(), enabled: isAuthenticated });
  const isHolder = !!own.data?.some((c) => c.certificateId === certificateId);
  const [downloadError, setDownloadError] = useState(false);

  let message = "Checking the digital credential's signature…";
  let ok = false;
  if (check.isError) message = "The digital credential could not be checked right now.";
  else if (check.data) {
    const { signatureVerified, revoked, expired } = check.data;
    ok = signatureVerified && !revoked && !expired;
    message = !signatureVerified
      ? "The digital credential's signature could not be verified."
      : revoked
        ? "Signature verified. The credential has been revoked."
        : expired
          ? "Signature verified. The credential has expired."
          : "Signature verified. The credential is valid and not revoked.";
  }
  return (
    <Card className="mt-6 flex flex-wrap items-start gap-4 p-5" data-testid="credential-check">
      {ok ? (
        <BadgeCheck className="shrink-0 text-green-700" size={28} aria-hidden="true" />
      ) : (
        <ShieldAlert className="shrink-0 text-slate-600" size={28} aria-hidden="true" />
      )}
      <div className="min-w-0 flex-1">
        <h2 className="font-semibold">Digital credential (Open Badges 3.0)</h2>
        <p className="text-sm text-slate-700" role="status">
          {message}
        </p>
        {/* The line keeps its place while the check runs, so the certificate below does not move. */}
        <p className="mt-1 break-all text-xs text-muted">{check.data ? `Issuer: ${check.data.issuer}` : "\u00a0"}</p>
        {downloadError && (
          <p className="mt-1 text-sm text-red-800" role="alert">
            The credential could not be downloaded. Please try again.
          </p>
        )}
      </div>
      {isHolder && (
        <Button
          variant="secondary"
          onClick={() => {
            setDownloadError(false);
            downloadCredential(certificateId).catch(() => setDownloadError(true));
          }}
        >
          <Download size={16} aria-hidden="true" />
          Download credential
        </Button>
      )}
    </Card>
  );
}
