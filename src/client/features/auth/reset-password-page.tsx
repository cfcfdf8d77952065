import { type FormEvent, useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { FormError, PasswordField, useFormError } from "#client/components/ui/form.tsx";
import { Card, PageContainer } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { refusal } from "#client/lib/api-client.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { MIN_PASSWORD_LENGTH } from "#shared/format.ts";
import { resetPassword } from "./api.ts";

export default function ResetPasswordPage() {
  useDocumentMeta({
    title: `Choose a new password | ${BRAND_NAME}`,
    description: `Choose a new password for your ${BRAND_NAME} account from the link we e-mailed you.`,
  });
  const [params] = useSearchParams();
  const token = params.get("token");
  const linkError = params.get("error");
  const toast = useToast();
  const navigate = useNavigate();
  const [password, setPassword] = useState("");
  const [confirm, setConfirm] = useState("");
  const [busy, setBusy] = useState(false);
  const error = useFormError<"password" | "confirm">();

  if (!token || linkError) {
    return (
      <PageContainer className="max-w-lg py-16 text-center">
        <h1 className="text-2xl font-bold">This reset link is not valid</h1>
        <p className="mt-3 text-muted">
          Reset links work once and expire after one hour. Ask for a new one from the sign-in page.
        </p>
        <Link to={paths.login} className={buttonClasses("primary", "md", "mt-6")}>
          Back to Sign In
        </Link>
      </PageContainer>
    );
  }

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (password !== confirm) {
      toast({ title: "Reset Failed", description: "The two passwords do not match.", variant: "destructive" });
      error.show("The two passwords do not match.", "confirm");
      return;
    }
    setBusy(true);
    error.clear();
    try {
      await resetPassword(token, password);
      toast({ title: "Password Updated", description: "Sign in with your new password." });
      navigate(paths.login, { replace: true });
    } catch (failure) {
      const description = refusal(failure);
      toast({ title: "Reset Failed", description, variant: "destructive" });
      error.show(description, "password");
      setBusy(false);
    }
  };

  return (
    <PageContainer className="max-w-lg">
      <Card className="p-6 sm:p-8">
        <h1 className="text-2xl font-bold">Choose a new password</h1>
        <p className="mt-1 text-sm text-muted">Setting a new password signs you out everywhere else.</p>
        <form onSubmit={submit} className="mt-6 space-y-4">
          <FormError id={error.errorId} message={error.message} />
          <PasswordField
            {...error.field("password")}
            label="New password"
            name="newPassword"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            hint="Password must be at least 6 characters long"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <PasswordField
            {...error.field("confirm")}
            label="Confirm new password"
            name="confirmPassword"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            value={confirm}
            onChange={(e) => setConfirm(e.target.value)}
          />
          <Button type="submit" className="w-full" disabled={busy}>
            {busy ? "Saving..." : "Set New Password"}
          </Button>
        </form>
      </Card>
    </PageContainer>
  );
}
