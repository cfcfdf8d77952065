import QRCode from "qrcode";
import { useEffect, useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, PasswordField, TextField } from "#client/components/ui/form.tsx";
import { Card, Spinner } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { authPost, cleanCode, twoFactorEnabled } from "#client/lib/second-factor.ts";
import { refreshCurrentUser, useCurrentUser } from "#client/lib/session.ts";

interface Setup {
  totpURI: string;
  backupCodes: string[];
  qrSvg: string;
}

/** The key an app asks for when the QR code cannot be scanned: the URI's base32 secret, in groups of four. */
const manualKey = (totpURI: string) =>
  (new URL(totpURI).searchParams.get("secret") ?? "").replace(/(.{4})/g, "$1 ").trim();

/** Ten single-use backup codes, shown once, and a file of them to keep. */
function BackupCodes({ codes }: { codes: string[] }) {
  const download = () => {
    const blob = new Blob([`Backup codes (each works once)\n\n${codes.join("\n")}\n`], { type: "text/plain" });
    const url = URL.createObjectURL(blob);
    const link = document.createElement("a");
    link.href = url;
    link.download = "backup-codes.txt";
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <div className="mt-4 rounded-lg border border-border p-4">
      <h3 className="font-semibold">Your backup codes</h3>
      <p className="mt-1 text-sm text-muted">
        Each works once, if you lose your phone. They are shown only now: download or write them down.
      </p>
      <ul className="mt-3 grid grid-cols-2 gap-2 font-mono text-sm" aria-label="Backup codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <Button type="button" variant="secondary" size="sm" className="mt-3" onClick={download}>
        Download backup codes
      </Button>
    </div>
  );
}

/**
 * Profile → Security: two-factor sign-in with an authenticator app (docs/decisions/0054). Turning it on
 * takes the password, shows the QR code and the manual key, and is confirmed by a first code; the
 * backup codes are shown once. Staff need it (or a passkey) to use their role.
 */
export function TwoFactorSection() {
  const { user } = useCurrentUser();
  const toast = useToast();
  const [enabled, setEnabled] = useState<boolean | null>(null);
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [setup, setSetup] = useState<Setup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();
  const headingId = useId();

  useEffect(() => {
    twoFactorEnabled().then(setEnabled, () => setEnabled(false));
  }, []);

  // Once the QR code shows, its code field has focus (after the render that adds it).
  useEffect(() => {
    if (setup) document.getElementById("totp-first-code")?.focus();
  }, [setup]);

  const run = async (work: () => Promise<void>, focusId: string) => {
    setBusy(true);
    setProblem(null);
    try {
      await work();
    } catch (failure) {
      setProblem(refusal(failure));
      document.getElementById(focusId)?.focus();
    } finally {
      setBusy(false);
    }
  };

  const start = (event: React.FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await authPost<{ totpURI: string; backupCodes: string[] }>("two-factor/enable", { password });
      const qrSvg = await QRCode.toString(answer.totpURI, { type: "svg", margin: 1 });
      setSetup({ ...answer, qrSvg });
      setPassword("");
    }, "totp-password");
  };

  const confirm = (event: React.FormEvent) => {
    event.preventDefault();
    void run(async () => {
      await authPost("two-factor/verify-totp", { code: cleanCode(code) });
      setCodes(setup?.backupCodes ?? null);
      setSetup(null);
      setCode("");
      setEnabled(true);
      await refreshCurrentUser();
      toast({ title: "Two-factor sign-in is on", description: "Sign-in now asks for a code from your app." });
      requestAnimationFrame(() => document.getElementById(headingId)?.focus());
    }, "totp-first-code");
  };

  const regenerate = (event: React.FormEvent) => {
    event.preventDefault();
    void run(async () => {
      const answer = await authPost<{ backupCodes: string[] }>("two-factor/generate-backup-codes", { password });
      setCodes(answer.backupCodes);
      setPassword("");
      toast({ title: "New backup codes", description: "The old ones no longer work." });
    }, "totp-password");
  };

  return (
    <Card className="mt-6 p-6" id="security">
      <h2 id={headingId} tabIndex={-1} className="font-serif text-xl font-bold">
        Two-factor sign-in
      </h2>
      {user?.roleOnHold && !enabled && (
        <p role="status" className="mt-2 rounded-lg bg-amber-50 p-3 text-sm text-amber-950">
          Your {user.roleOnHold} role needs two-factor sign-in or a passkey. Until one is set up you have a learner's
          access.
        </p>
      )}
      {enabled === null ? (
        <Spinner label="Loading two-factor settings" />
      ) : setup ? (
        <form onSubmit={confirm} className="mt-4 space-y-4" noValidate>
          <p className="text-sm">Scan this QR code with your authenticator app, then enter the code it shows.</p>
          {/* The SVG comes from the qrcode package, drawn from the URI the server sent. */}
          <div
            role="img"
            aria-label="QR code for your authenticator app"
            className="w-48 bg-white p-2"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: an SVG the qrcode package drew from the server's URI
            dangerouslySetInnerHTML={{ __html: setup.qrSvg }}
          />
          <p className="text-sm">
            Or type this key into the app: <code className="font-mono break-all">{manualKey(setup.totpURI)}</code>
          </p>
          <FormError id={errorId} message={problem} />
          <TextField
            id="totp-first-code"
            label="Code from the app"
            value={code}
            onChange={(e) => setCode(e.target.value)}
            inputMode="numeric"
            autoComplete="one-time-code"
            errorId={problem ? errorId : undefined}
          />
          <Button type="submit" pending={busy}>
            {busy ? "Checking..." : "Turn on two-factor sign-in"}
          </Button>
        </form>
      ) : (
        <form onSubmit={enabled ? regenerate : start} className="mt-4 space-y-4" noValidate>
          <p className="text-sm">
            {enabled
              ? "On: sign-in asks for a code from your authenticator app. New backup codes replace the old ones."
              : "Off. With it on, sign-in asks for a code from an authenticator app after your password."}
          </p>
          <FormError id={errorId} message={problem} />
          <PasswordField
            id="totp-password"
            label="Your password"
            autoComplete="current-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            errorId={problem ? errorId : undefined}
          />
          <Button type="submit" pending={busy}>
            {enabled ? "Make new backup codes" : "Set up two-factor sign-in"}
          </Button>
        </form>
      )}
      {codes && <BackupCodes codes={codes} />}
    </Card>
  );
}
