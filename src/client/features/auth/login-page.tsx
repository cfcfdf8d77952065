import { zodResolver } from "@hookform/resolvers/zod";
import { Tabs } from "radix-ui";
import { useEffect, useRef, useState } from "react";
import { useForm } from "react-hook-form";
import { Link, useNavigate, useSearchParams } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, PasswordField, TextField, useFormErrors } from "#client/components/ui/form.tsx";
import { Card, PageContainer } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { ApiError } from "#client/lib/api-client.ts";
import { authCall, authClient } from "#client/lib/auth-client.ts";
import { refreshCurrentUser } from "#client/lib/session.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { MIN_PASSWORD_LENGTH } from "#shared/format.ts";
import { signInInputSchema, signUpInputSchema } from "#shared/schemas/auth.ts";
import { useRequestPasswordReset, useSecondFactor, useSignIn, useSignUp } from "./api.ts";

const providerMessage = (error: unknown) => (error instanceof ApiError ? error.serverMessage : undefined);

/** Only same-site paths are followed after sign-in. */
function safeNext(next: string | null): string {
  return next?.startsWith("/") && !next.startsWith("//") ? next : paths.home;
}

/** After a right password, for an account with two-factor on: a code from the app or a backup code. */
function CodeStep({ onDone }: { onDone: () => Promise<void> }) {
  const [backup, setBackup] = useState(false);
  const [trustDevice, setTrustDevice] = useState(false);
  const [code, setCode] = useState("");
  const [problem, setProblem] = useState<string | null>(null);
  const verify = useSecondFactor();
  const focusCode = () => document.getElementById("sign-in-code")?.focus();
  useEffect(focusCode, []);
  const errorId = "sign-in-code-error";
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!code.trim()) {
      setProblem(backup ? "Enter one of your backup codes." : "Enter the 6-digit code from your app.");
      focusCode();
      return;
    }
    verify.mutate(
      { code, backup, trustDevice },
      {
        onSuccess: onDone,
        onError: (failure) => {
          setProblem(providerMessage(failure) ?? "That code did not work. Try again.");
          focusCode();
        },
      },
    );
  };
  return (
    <form onSubmit={submit} className="space-y-4" noValidate aria-labelledby="code-step-heading">
      <h2 id="code-step-heading" className="text-lg font-semibold">
        {backup ? "Enter a backup code" : "Enter the code from your authenticator app"}
      </h2>
      <FormError id={errorId} message={problem} />
      <TextField
        id="sign-in-code"
        name="code"
        label={backup ? "Backup code" : "6-digit code"}
        value={code}
        onChange={(e) => setCode(e.target.value)}
        inputMode={backup ? "text" : "numeric"}
        autoComplete="one-time-code"
        errorId={problem ? errorId : undefined}
      />
      {!backup && (
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={trustDevice} onChange={(e) => setTrustDevice(e.target.checked)} />
          Trust this device for 30 days
        </label>
      )}
      <Button type="submit" className="w-full" pending={verify.isPending || verify.isSuccess}>
        {verify.isPending || verify.isSuccess ? "Checking..." : "Continue"}
      </Button>
      <button
        type="button"
        className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
        onClick={() => {
          setBackup(!backup);
          setProblem(null);
          setCode("");
          focusCode();
        }}
      >
        {backup ? "Use a code from the app instead" : "Use a backup code instead"}
      </button>
    </form>
  );
}

function SignInForm() {
  const toast = useToast();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [codeNeeded, setCodeNeeded] = useState(false);
  const signedIn = async () => {
    toast({ title: "Welcome back!", description: "You've successfully signed in to your account." });
    await refreshCurrentUser();
    navigate(safeNext(params.get("next")), { replace: true });
  };
  const form = useForm({ resolver: zodResolver(signInInputSchema), defaultValues: { email: "", password: "" } });
  const error = useFormErrors(form);
  const signIn = useSignIn();
  const reset = useRequestPasswordReset();
  const submit = form.handleSubmit((input) =>
    signIn.mutate(input, {
      onSuccess: async ({ codeNeeded }) => {
        if (codeNeeded) setCodeNeeded(true);
        else await signedIn();
      },
      onError: (failure) => {
        const description = providerMessage(failure) ?? "Please check your credentials and try again.";
        toast({ title: "Sign In Failed", description, variant: "destructive" });
        error.show(description, "email", "password");
      },
    }),
  );

  // Busy until the page is left for the next one.
  const signingIn = signIn.isPending || (signIn.isSuccess && !codeNeeded);

  const forgot = () => {
    const email = form.getValues("email").trim();
    form.clearErrors();
    if (!email) {
      toast({ title: "Email Required", description: "Please enter your email address first.", variant: "destructive" });
      error.show("Please enter your email address first.", "email");
      return;
    }
    reset.mutate(email, {
      onSuccess: () =>
        toast({ title: "Password Reset Sent", description: "Check your email for password reset instructions." }),
      onError: (failure) => {
        const description = providerMessage(failure) ?? "Please try again.";
        toast({ title: "Reset Failed", description, variant: "destructive" });
        error.show(description, "email");
      },
    });
  };

  if (codeNeeded) return <CodeStep onDone={signedIn} />;
  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <FormError id={error.errorId} message={error.message} />
      <TextField {...error.field("email")} label="Email" type="email" autoComplete="email" required />
      <PasswordField {...error.field("password")} label="Password" autoComplete="current-password" required />
      <div className="flex justify-end">
        <button
          type="button"
          onClick={forgot}
          className="text-sm font-medium text-brand-700 underline-offset-2 hover:underline"
        >
          Forgot your password?
        </button>
      </div>
      {reset.isSuccess && (
        <p role="status" className="rounded-lg bg-brand-50 p-3 text-sm text-brand-900">
          If an account exists for {reset.variables}, a reset link is on its way. It works once and expires in one hour.
        </p>
      )}
      <Button type="submit" className="w-full" pending={signingIn}>
        {signingIn ? "Signing In..." : "Sign In"}
      </Button>
      <Button
        type="button"
        variant="secondary"
        className="w-full"
        pending={signingIn}
        onClick={async () => {
          try {
            await authCall(authClient.signIn.passkey());
            await signedIn();
          } catch (failure) {
            const description = providerMessage(failure) ?? "The passkey did not sign you in.";
            toast({ title: "Sign In Failed", description, variant: "destructive" });
            error.show(description, "email");
          }
        }}
      >
        Sign in with a passkey
      </Button>
    </form>
  );
}

/** The spec's pause between "Account Created!" and the dashboard. */
const SIGN_UP_REDIRECT_MS = 2000;

/** The server refused the address because it already has an account. */
const isRegisteredAddress = (failure: unknown) => failure instanceof ApiError && failure.status === 422;

/** The sign-up field a server message is about, so focus lands where the fix is. */
function fieldOfSignUpError(message: string): "firstName" | "lastName" | "email" | "password" {
  if (/already exists/i.test(message)) return "email";
  if (/password/i.test(message)) return "password";
  if (/first name/i.test(message)) return "firstName";
  if (/last name/i.test(message)) return "lastName";
  return "email";
}

function SignUpForm() {
  const toast = useToast();
  const navigate = useNavigate();
  const form = useForm({
    resolver: zodResolver(signUpInputSchema),
    defaultValues: { firstName: "", lastName: "", email: "", password: "" },
  });
  const error = useFormErrors(form);
  const redirect = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(redirect.current), []);
  const signUp = useSignUp();
  const submit = form.handleSubmit((input) =>
    signUp.mutate(input, {
      onSuccess: () => {
        // The new account is signed in (the session cookie is set); a confirmation e-mail is on its way.
        toast({ title: "Account Created!", description: "Redirecting you to the dashboard..." });
        // Read the new session only when leaving: a signed-in visitor of /login is sent on at once.
        redirect.current = setTimeout(async () => {
          await refreshCurrentUser();
          navigate(paths.home, { replace: true });
        }, SIGN_UP_REDIRECT_MS);
      },
      onError: (failure) => {
        const description = providerMessage(failure) ?? "Please try again with a different email.";
        toast({ title: "Sign Up Failed", description, variant: "destructive" });
        error.show(description, fieldOfSignUpError(description));
      },
    }),
  );
  // The button stays busy through the pause before the dashboard.
  const busy = signUp.isPending || signUp.isSuccess;

  return (
    <form onSubmit={submit} className="space-y-4" noValidate>
      <FormError id={error.errorId} message={error.message} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          {...error.field("firstName")}
          label="First name"
          autoComplete="given-name"
          required
          maxLength={255}
        />
        <TextField {...error.field("lastName")} label="Last name" autoComplete="family-name" required maxLength={255} />
      </div>
      <TextField {...error.field("email")} label="Email" type="email" autoComplete="email" required />
      <PasswordField
        {...error.field("password")}
        label="Password"
        autoComplete="new-password"
        required
        minLength={MIN_PASSWORD_LENGTH}
        hint="Password must be at least 6 characters long. Common, easily guessed passwords are refused."
      />
      {isRegisteredAddress(signUp.error) && (
        <p className="text-sm">
          <Link to={paths.login} className="font-medium text-brand-700 underline">
            Go to Sign In
          </Link>{" "}
          (its “Forgot your password?” sends a reset link).
        </p>
      )}
      {signUp.isSuccess && (
        <p role="status" className="rounded-lg bg-brand-50 p-3 text-sm text-brand-900">
          Account created. Redirecting you to the dashboard... We also sent a message to {signUp.variables.email}: open
          its link to confirm your address.
        </p>
      )}
      <Button type="submit" className="w-full" pending={busy}>
        {busy ? "Creating Account..." : "Create Account"}
      </Button>
      <p className="text-xs text-muted">
        By creating an account, you agree to our{" "}
        <Link to={paths.terms} className="text-brand-700 underline">
          Terms of Service
        </Link>{" "}
        and{" "}
        <Link to={paths.privacy} className="text-brand-700 underline">
          Privacy Policy
        </Link>
        .
      </p>
    </form>
  );
}

export default function LoginPage() {
  useDocumentMeta({
    title: `Sign In | ${BRAND_NAME}`,
    description: `Sign in or create your ${BRAND_NAME} account.`,
  });
  const [params, setParams] = useSearchParams();
  const tab = params.get("tab") === "signup" ? "signup" : "signin";
  const triggerClass =
    "flex-1 rounded-md px-3 py-2 text-sm font-semibold text-slate-600 data-[state=active]:bg-white data-[state=active]:text-brand-800 data-[state=active]:shadow-sm";
  return (
    <PageContainer className="grid max-w-5xl gap-8 lg:grid-cols-2 lg:items-start">
      <Card className="p-6 sm:p-8">
        <h1 className="text-2xl font-bold">Welcome to {BRAND_NAME}</h1>
        <p className="mt-1 text-sm text-muted">
          Sign in to continue your certification, or create an account to start.
        </p>
        <Tabs.Root
          value={tab}
          onValueChange={(v) => setParams(v === "signup" ? { tab: "signup" } : {}, { replace: true })}
          className="mt-6"
        >
          <Tabs.List aria-label="Sign in or sign up" className="flex gap-1 rounded-lg bg-slate-100 p-1">
            <Tabs.Trigger value="signin" className={triggerClass}>
              Sign In
            </Tabs.Trigger>
            <Tabs.Trigger value="signup" className={triggerClass}>
              Sign Up
            </Tabs.Trigger>
          </Tabs.List>
          {/* Not a Tab stop of its own: its first field follows the tabs directly. */}
          <Tabs.Content value="signin" className="mt-6" tabIndex={-1}>
            <SignInForm />
          </Tabs.Content>
          <Tabs.Content value="signup" className="mt-6" tabIndex={-1}>
            <SignUpForm />
          </Tabs.Content>
        </Tabs.Root>
      </Card>
      <aside className="rounded-2xl bg-gradient-to-br from-brand-700 to-brand-900 p-6 text-white sm:p-8">
        <h2 className="text-xl font-bold">Become an eligible practitioner</h2>
        <p className="mt-3 text-brand-50">
          Complete any certification course and you can register on our companion practitioner app, set your own hours
          and offer sessions to clients looking for support.
        </p>
        <ul className="mt-4 list-disc space-y-1 pl-5 text-sm text-brand-50">
          <li>Learn at your own pace, with lifetime access</li>
          <li>Earn a certificate employers can verify online</li>
          <li>Join a growing community of practitioners with verifiable certificates</li>
        </ul>
      </aside>
    </PageContainer>
  );
}
