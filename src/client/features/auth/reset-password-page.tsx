import { zodResolver } from "@hookform/resolvers/zod";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { z } from "zod";
import { Button, buttonClasses } from "#client/components/ui/button.tsx";
import { FormError, PasswordField, useFormErrors } from "#client/components/ui/form.tsx";
import { Card, PageContainer } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { refusal } from "#client/lib/api-client.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { MIN_PASSWORD_LENGTH } from "#shared/format.ts";
import { passwordResetInputSchema } from "#shared/schemas/auth.ts";
import { useResetPassword } from "./api.ts";

const MISMATCH = "The two passwords do not match.";

/** The reset route's new password, typed twice. */
const newPasswordFormSchema = passwordResetInputSchema
  .pick({ newPassword: true })
  .extend({ confirmPassword: z.string() })
  .refine((input) => input.newPassword === input.confirmPassword, { message: MISMATCH, path: ["confirmPassword"] });

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
  const form = useForm({
    resolver: zodResolver(newPasswordFormSchema),
    defaultValues: { newPassword: "", confirmPassword: "" },
  });
  const error = useFormErrors(form);
  const saving = useResetPassword();

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

  const submit = form.handleSubmit(
    ({ newPassword }) =>
      saving.mutate(
        { token, newPassword },
        {
          onSuccess: () => {
            toast({ title: "Password Updated", description: "Sign in with your new password." });
            navigate(paths.login, { replace: true });
          },
          onError: (failure) => {
            const description = refusal(failure);
            toast({ title: "Reset Failed", description, variant: "destructive" });
            error.show(description, "newPassword");
          },
        },
      ),
    (errors) => {
      if (errors.confirmPassword?.message === MISMATCH)
        toast({ title: "Reset Failed", description: MISMATCH, variant: "destructive" });
    },
  );

  return (
    <PageContainer className="max-w-lg">
      <Card className="p-6 sm:p-8">
        <h1 className="text-2xl font-bold">Choose a new password</h1>
        <p className="mt-1 text-sm text-muted">Setting a new password signs you out everywhere else.</p>
        <form onSubmit={submit} className="mt-6 space-y-4" noValidate>
          <FormError id={error.errorId} message={error.message} />
          <PasswordField
            {...error.field("newPassword")}
            label="New password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
            hint="Password must be at least 6 characters long"
          />
          <PasswordField
            {...error.field("confirmPassword")}
            label="Confirm new password"
            autoComplete="new-password"
            required
            minLength={MIN_PASSWORD_LENGTH}
          />
          <Button type="submit" className="w-full" pending={saving.isPending}>
            {saving.isPending ? "Saving..." : "Set New Password"}
          </Button>
        </form>
      </Card>
    </PageContainer>
  );
}
