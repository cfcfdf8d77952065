import { Dialog } from "radix-ui";
import { useEffect, useRef, useState } from "react";
import { ApiError, refusal, registerRefusalHandler } from "#client/lib/api-client.ts";
import { accountFactors, authPost, cleanCode, type Factors } from "#client/lib/second-factor.ts";
import { STEP_UP_REQUIRED } from "#shared/constants.ts";
import { isRecord } from "#shared/guards.ts";
import { Button, buttonClasses } from "./button.tsx";
import { FormError, TextField } from "./form.tsx";

/**
 * The prompt for a fresh second factor (docs/decisions/0054): an action that moves money or
 * credentials was answered 403 STEP_UP_REQUIRED; a code from the app (or a backup code), or one of the
 * account's passkeys, confirms it is still the account's owner, and the action is sent once more.
 * Cancel leaves it refused.
 */
export function StepUpPrompt() {
  const [open, setOpen] = useState(false);
  const [backup, setBackup] = useState(false);
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [factors, setFactors] = useState<Factors>({ totp: true, passkey: false });
  const settle = useRef<((confirmed: boolean) => void) | null>(null);
  const returnTo = useRef<HTMLElement | null>(null);

  useEffect(() => {
    // The account's factors first, so the dialog opens with the right fields (and focus stays in them).
    const ask = async () => {
      setFactors(await accountFactors().catch(() => ({ totp: true, passkey: false })));
      return new Promise<boolean>((resolve) => {
        settle.current = resolve;
        // The body when the action's button lost focus by being disabled: then main takes it back.
        const active = document.activeElement;
        returnTo.current = active instanceof HTMLElement && active !== document.body ? active : null;
        setCode("");
        setProblem(null);
        setBackup(false);
        setOpen(true);
      });
    };
    // An action that needs a fresh second factor (403 STEP_UP_REQUIRED) prompts for it, then is sent once more.
    registerRefusalHandler(async (copy, status, text) => {
      if (status !== 403 || codeOf(text) !== STEP_UP_REQUIRED || !(await ask())) return null;
      const again = await fetch(copy);
      focusBack(returnTo.current);
      if (again.ok) return again;
      const retryText = await again.text();
      throw new ApiError(again.status, retryText, `${again.status}: ${retryText || again.statusText}`);
    });
    return () => registerRefusalHandler(null);
  }, []);

  const finish = (confirmed: boolean) => {
    settle.current?.(confirmed);
    settle.current = null;
    setOpen(false);
  };

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setProblem(backup ? "Enter one of your backup codes." : "Enter the 6-digit code from your app.");
      document.getElementById("step-up-code")?.focus();
      return;
    }
    setBusy(true);
    try {
      await authPost(backup ? "two-factor/verify-backup-code" : "two-factor/verify-totp", { code: cleanCode(code) });
      finish(true);
    } catch (failure) {
      setProblem(refusal(failure, "That code did not work. Try again."));
      document.getElementById("step-up-code")?.focus();
    } finally {
      setBusy(false);
    }
  };

  const confirmWithPasskey = async () => {
    setBusy(true);
    setProblem(null);
    try {
      const { authCall, authClient } = await import("#client/lib/auth-client.ts");
      await authCall(authClient.signIn.passkey());
      finish(true);
    } catch (failure) {
      setProblem(refusal(failure, "The passkey did not confirm it. Try again."));
      document.getElementById("step-up-passkey")?.focus();
    } finally {
      setBusy(false);
    }
  };

  const passkeyButton = factors.passkey && (
    <Button
      id="step-up-passkey"
      type="button"
      size="sm"
      variant={factors.totp ? "secondary" : "primary"}
      pending={busy}
      onClick={confirmWithPasskey}
    >
      Use a passkey
    </Button>
  );

  return (
    <Dialog.Root open={open} onOpenChange={(next) => !next && finish(false)}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
        <Dialog.Content
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            focusBack(returnTo.current);
          }}
          className="fixed top-1/2 left-1/2 z-50 max-h-[90vh] w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-6 shadow-xl"
        >
          <Dialog.Title className="text-lg font-semibold text-slate-900">Confirm it is you</Dialog.Title>
          <Dialog.Description className="mt-2 text-sm text-slate-700">
            {factors.totp
              ? `This action needs a fresh code from your authenticator app${backup ? " or a backup code" : ""}${factors.passkey ? ", or one of your passkeys" : ""}.`
              : "This action needs one of your passkeys."}
          </Dialog.Description>
          {!factors.totp && (
            <div className="mt-4 space-y-4">
              <FormError id="step-up-error" message={problem} />
              <div className="flex flex-wrap justify-end gap-3">
                <Dialog.Close className={buttonClasses("secondary", "sm")}>Cancel</Dialog.Close>
                {passkeyButton}
              </div>
            </div>
          )}
          <form onSubmit={submit} className="mt-4 space-y-4" noValidate hidden={!factors.totp}>
            <FormError id="step-up-error" message={problem} />
            <TextField
              id="step-up-code"
              label={backup ? "Backup code" : "6-digit code"}
              value={code}
              onChange={(e) => setCode(e.target.value)}
              inputMode={backup ? "text" : "numeric"}
              autoComplete="one-time-code"
              errorId={problem ? "step-up-error" : undefined}
            />
            <button
              type="button"
              className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
              onClick={() => {
                setBackup(!backup);
                setProblem(null);
                setCode("");
                document.getElementById("step-up-code")?.focus();
              }}
            >
              {backup ? "Use a code from the app instead" : "Use a backup code instead"}
            </button>
            {passkeyButton && <div>{passkeyButton}</div>}
            <div className="flex flex-wrap justify-end gap-3">
              <Dialog.Close className={buttonClasses("secondary", "sm")}>Cancel</Dialog.Close>
              <Button type="submit" size="sm" pending={busy}>
                {busy ? "Checking..." : "Confirm"}
              </Button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/** The server's `code` of a refusal, when it has one. */
function codeOf(text: string): unknown {
  try {
    const parsed: unknown = JSON.parse(text);
    return isRecord(parsed) ? parsed.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Focus back on what had it before the prompt. The action's button is often disabled while its
 * request runs (a disabled button cannot take focus), so it is tried again until the page enables it,
 * and the page's main region takes focus if the button has gone: focus is never left on the body.
 */
function focusBack(element: HTMLElement | null, tries = 50) {
  setTimeout(() => {
    const active = document.activeElement;
    if (active && active !== document.body) return;
    const usable = element?.isConnected && !(element instanceof HTMLButtonElement && element.disabled);
    if (usable) element?.focus();
    else if (element && tries > 0) focusBack(element, tries - 1);
    else document.getElementById("main")?.focus();
  }, 20);
}
