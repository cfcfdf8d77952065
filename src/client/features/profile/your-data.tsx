import { zodResolver } from "@hookform/resolvers/zod";
import { Download, Trash2 } from "lucide-react";
import { Dialog } from "radix-ui";
import { useForm } from "react-hook-form";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { FormError, PasswordField, useFormErrors } from "#client/components/ui/form.tsx";
import { Card } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { refusal } from "#client/lib/api-client.ts";
import { deleteAccountInputSchema } from "#shared/schemas/account.ts";
import { useDeleteAccount } from "./api.ts";

async function downloadMyData() {
  const response = await fetch("/api/account/export", { credentials: "include" });
  if (!response.ok) throw new Error(`${response.status}: ${await response.text()}`);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement("a");
  link.href = url;
  link.download = "my-academy-data.json";
  link.click();
  URL.revokeObjectURL(url);
}

/** The privacy page's rights, as buttons: a copy of one's data, and deleting the account. */
export function YourData() {
  const toast = useToast();
  const form = useForm({ resolver: zodResolver(deleteAccountInputSchema), defaultValues: { password: "" } });
  const error = useFormErrors(form);
  const deletion = useDeleteAccount();

  const download = async () => {
    try {
      await downloadMyData();
      toast({ title: "Download Started", description: "my-academy-data.json" });
    } catch (failure) {
      toast({ title: "Download Failed", description: refusal(failure), variant: "destructive" });
    }
  };

  const remove = form.handleSubmit((input) =>
    deletion.mutate(input, {
      onSuccess: () => window.location.assign(`${paths.home}?account=deleted`),
      onError: (failure) => error.show(refusal(failure), "password"),
    }),
  );
  // Busy until the browser has left for the home page.
  const busy = deletion.isPending || deletion.isSuccess;

  return (
    <Card className="mt-6 p-6">
      <h2 className="text-lg font-semibold">Your data</h2>
      <p className="mt-1 text-sm text-muted">
        A copy of what we keep about you: account, enrollments, progress, attempts, orders, certificates and directory
        listing.
      </p>
      <Button variant="secondary" className="mt-3" onClick={() => void download()}>
        <Download size={16} aria-hidden="true" />
        Download my data
      </Button>
      <div className="mt-6 border-t border-line pt-4">
        <p className="text-sm text-muted">
          Deleting your account signs you out everywhere and removes your personal data. Certificates you earned stay
          verifiable on their public page, and order records stay for accounting.
        </p>
        <Dialog.Root onOpenChange={() => form.clearErrors()}>
          <Dialog.Trigger className={buttonClasses("danger", "md", "mt-3")}>
            <Trash2 size={16} aria-hidden="true" />
            Delete my account
          </Dialog.Trigger>
          <Dialog.Portal>
            <Dialog.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
            <Dialog.Content className="fixed top-1/2 left-1/2 z-50 w-[min(28rem,calc(100vw-2rem))] -translate-x-1/2 -translate-y-1/2 rounded-2xl bg-white p-6 shadow-xl">
              <Dialog.Title className="text-lg font-semibold">Delete your account?</Dialog.Title>
              <Dialog.Description className="mt-2 text-sm text-slate-700">
                This cannot be undone. Enter your password to confirm.
              </Dialog.Description>
              <form onSubmit={remove} className="mt-4 space-y-4" noValidate>
                <FormError id={error.errorId} message={error.message} />
                <PasswordField {...error.field("password")} label="Password" autoComplete="current-password" />
                <div className="flex flex-wrap justify-end gap-3">
                  <Dialog.Close className={buttonClasses("secondary", "sm")}>Cancel</Dialog.Close>
                  <Button type="submit" variant="danger" size="sm" pending={busy}>
                    {busy ? "Deleting..." : "Delete my account"}
                  </Button>
                </div>
              </form>
            </Dialog.Content>
          </Dialog.Portal>
        </Dialog.Root>
      </div>
    </Card>
  );
}
