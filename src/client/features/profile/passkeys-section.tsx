import { useCallback, useEffect, useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, TextField } from "#client/components/ui/form.tsx";
import { Card, Spinner } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { authCall, authClient } from "#client/lib/auth-client.ts";
import { refreshCurrentUser } from "#client/lib/session.ts";
import { usePasswordSignIn, useSetPasswordSignIn } from "./api.ts";

interface Passkey {
  id: string;
  name?: string | null;
  createdAt?: string | Date | null;
}

/**
 * Profile → Passkeys (docs/decisions/0054): several per account, each named, each removable; a passkey
 * signs in without the password and counts as a second factor for staff.
 */
export function PasskeysSection() {
  const toast = useToast();
  const [keys, setKeys] = useState<Passkey[] | null>(null);
  const [name, setName] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const errorId = useId();

  const load = useCallback(async () => {
    const { data } = await authClient.passkey.listUserPasskeys();
    setKeys((data as Passkey[] | null) ?? []);
  }, []);
  useEffect(() => {
    load().catch(() => setKeys([]));
  }, [load]);

  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    const label = name.trim();
    if (!label) {
      setProblem("Name the passkey, e.g. “Work laptop”.");
      document.getElementById("passkey-name")?.focus();
      return;
    }
    setBusy(true);
    setProblem(null);
    try {
      await authCall(authClient.passkey.addPasskey({ name: label }));
      setName("");
      await load();
      await refreshCurrentUser();
      toast({ title: "Passkey added", description: label });
    } catch (failure) {
      setProblem(refusal(failure, "The passkey was not added."));
      document.getElementById("passkey-name")?.focus();
    } finally {
      setBusy(false);
    }
  };

  const remove = async (key: Passkey) => {
    setBusy(true);
    try {
      await authCall(authClient.passkey.deletePasskey({ id: key.id }));
      await load();
      await refreshCurrentUser();
      toast({ title: "Passkey removed", description: key.name ?? "" });
      document.getElementById("passkey-name")?.focus();
    } catch (failure) {
      toast({ title: "Passkey not removed", description: refusal(failure), variant: "destructive" });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card className="mt-6 p-6">
      <h2 className="font-serif text-xl font-bold">Passkeys</h2>
      <p className="mt-1 text-sm text-muted">
        Sign in with your device's screen lock or a security key instead of a password.
      </p>
      {keys === null ? (
        <Spinner label="Loading your passkeys" />
      ) : (
        <ul className="mt-3 divide-y divide-border" aria-label="Your passkeys">
          {keys.length === 0 && <li className="py-2 text-sm text-muted">No passkey yet.</li>}
          {keys.map((key) => (
            <li key={key.id} className="flex flex-wrap items-center justify-between gap-3 py-2 text-sm">
              <span className="font-medium">{key.name || "Passkey"}</span>
              <Button
                type="button"
                variant="secondary"
                size="sm"
                pending={busy}
                onClick={() => remove(key)}
                aria-label={`Remove passkey ${key.name || ""}`.trim()}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
      {keys !== null && keys.length > 0 && <PasswordSignIn />}
      <form onSubmit={add} className="mt-4 space-y-3" noValidate>
        <FormError id={errorId} message={problem} />
        <TextField
          id="passkey-name"
          label="Name of the new passkey"
          value={name}
          onChange={(e) => setName(e.target.value)}
          maxLength={100}
          errorId={problem ? errorId : undefined}
        />
        <Button type="submit" pending={busy}>
          Add a passkey
        </Button>
      </form>
    </Card>
  );
}

/**
 * Password sign-in off and on, for an account with a passkey: the server refuses the password while it
 * is off, and asks for a fresh confirmation (the step-up prompt) before either change.
 */
function PasswordSignIn() {
  const toast = useToast();
  const current = usePasswordSignIn();
  const change = useSetPasswordSignIn();
  const [problem, setProblem] = useState<string | null>(null);
  const errorId = useId();
  const enabled = current.data?.enabled;
  if (enabled === undefined) return null;
  // Not disabled while pending: focus stays on the button through the step-up prompt and the answer.
  const toggle = async () => {
    if (change.isPending) return;
    setProblem(null);
    try {
      const { enabled: now } = await change.mutateAsync(!enabled);
      toast({ title: now ? "Password sign-in is on" : "Password sign-in is off" });
    } catch (failure) {
      setProblem(refusal(failure, "Password sign-in was not changed."));
    }
    document.getElementById("password-sign-in-toggle")?.focus();
  };
  return (
    <section className="mt-4 border-t border-border pt-4" aria-labelledby="password-sign-in-heading">
      <h3 id="password-sign-in-heading" className="font-semibold">
        Password sign-in
      </h3>
      <p className="mt-1 text-sm text-muted">
        {enabled
          ? "You can sign in with your password or a passkey."
          : "Off: this account signs in with a passkey only. Keep at least one passkey."}
      </p>
      <FormError id={errorId} message={problem} />
      <Button
        id="password-sign-in-toggle"
        type="button"
        variant="secondary"
        className="mt-2"
        aria-describedby={problem ? errorId : undefined}
        onClick={toggle}
      >
        {enabled ? "Turn password sign-in off" : "Turn password sign-in on"}
      </Button>
    </section>
  );
}
