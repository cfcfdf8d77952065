import { zodResolver } from "@hookform/resolvers/zod";
import { useId } from "react";
import { Controller, useForm } from "react-hook-form";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, TextField, useFormErrors } from "#client/components/ui/form.tsx";
import { Card, PageContainer } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { profileInputSchema } from "#shared/schemas/certificates.ts";
import { useUpdateProfile } from "./api.ts";
import { NameOrderField } from "./name-order-field.tsx";
import { PasskeysSection } from "./passkeys-section.tsx";
import { PractitionerListingForm } from "./practitioner-listing-form.tsx";
import { SessionsSection } from "./sessions-section.tsx";
import { TwoFactorSection } from "./two-factor-section.tsx";
import { YourData } from "./your-data.tsx";

/** The profile field a server message is about, so focus lands where the fix is. */
function fieldOfProfileError(message: string): "firstName" | "lastName" | "nameOrder" {
  if (/last name/i.test(message)) return "lastName";
  if (/name order/i.test(message)) return "nameOrder";
  return "firstName";
}

export default function ProfilePage() {
  useDocumentMeta({
    title: `Your profile | ${BRAND_NAME}`,
    description: `Your ${BRAND_NAME} profile: your name on certificates, your directory listing, and your data.`,
  });
  const { user } = useCurrentUser();
  const toast = useToast();
  const updateProfile = useUpdateProfile();
  const form = useForm({
    resolver: zodResolver(profileInputSchema),
    defaultValues: {
      firstName: user?.firstName ?? "",
      lastName: user?.lastName ?? "",
      nameOrder: user?.nameOrder ?? "given-first",
    },
  });
  const error = useFormErrors(form);
  const nameOrderId = useId();
  const [firstName, lastName] = form.watch(["firstName", "lastName"]);

  const submit = form.handleSubmit((input) =>
    updateProfile.mutate(input, {
      onSuccess: () =>
        toast({
          title: "Profile Updated",
          description:
            "Certificates you earn from now on use this name. Existing ones can be reissued from their page.",
        }),
      onError: (failure) => {
        const description = refusal(failure);
        toast({ title: "Profile Not Saved", description, variant: "destructive" });
        error.show(description, fieldOfProfileError(description));
      },
    }),
  );

  return (
    <PageContainer className="max-w-xl">
      <h1 className="font-serif text-3xl font-bold">Your profile</h1>
      <Card className="mt-6 p-6">
        <p className="text-sm text-muted">Signed in as {user?.email}</p>
        <form onSubmit={submit} className="mt-4 space-y-4" noValidate>
          <FormError id={error.errorId} message={error.message} />
          <TextField
            {...error.field("firstName")}
            label="First name"
            autoComplete="given-name"
            required
            maxLength={255}
          />
          <TextField
            {...error.field("lastName")}
            label="Last name"
            autoComplete="family-name"
            required
            maxLength={255}
            hint="This is the name printed on your certificates."
          />
          <Controller
            control={form.control}
            name="nameOrder"
            render={({ field }) => (
              <NameOrderField
                id={nameOrderId}
                errorId={error.errorIdOf("nameOrder")}
                value={field.value ?? "given-first"}
                onChange={field.onChange}
                firstName={firstName}
                lastName={lastName}
              />
            )}
          />
          <Button type="submit" pending={updateProfile.isPending}>
            {updateProfile.isPending ? "Saving..." : "Save"}
          </Button>
        </form>
      </Card>
      <TwoFactorSection />
      <PasskeysSection />
      <SessionsSection />
      <PractitionerListingForm />
      <YourData />
    </PageContainer>
  );
}
