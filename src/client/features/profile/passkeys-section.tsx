import { useCallback, useEffect, useId, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, TextField } from "#client/components/ui/form.tsx";
import { Card, Spinner } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { authCall, authClient } from "#client/lib/auth-client.ts";
import { refreshCurrentUser } from "#client/lib/session.ts";

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
                disabled={busy}
                onClick={() => remove(key)}
                aria-label={`Remove passkey ${key.name || ""}`.trim()}
              >
                Remove
              </Button>
            </li>
          ))}
        </ul>
      )}
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
        <Button type="submit" disabled={busy}>
          Add a passkey
        </Button>
      </form>
    </Card>
  );
}
