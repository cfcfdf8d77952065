import { type FormEvent, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { FormError, TextField, useFormError } from "#client/components/ui/form.tsx";
import { Card, PageContainer } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import type { NameOrder } from "#shared/schemas/text.ts";
import { useUpdateProfile } from "./api.ts";
import { NameOrderField } from "./name-order-field.tsx";
import { PractitionerListingForm } from "./practitioner-listing-form.tsx";
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
  const [firstName, setFirstName] = useState(user?.firstName ?? "");
  const [lastName, setLastName] = useState(user?.lastName ?? "");
  const [nameOrder, setNameOrder] = useState<NameOrder>(user?.nameOrder ?? "given-first");
  const [busy, setBusy] = useState(false);
  const error = useFormError<"firstName" | "lastName" | "nameOrder">();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    error.clear();
    try {
      await updateProfile.mutateAsync({ firstName: firstName.trim(), lastName: lastName.trim(), nameOrder });
      toast({
        title: "Profile Updated",
        description: "Certificates you earn from now on use this name. Existing ones can be reissued from their page.",
      });
    } catch (failure) {
      const description = refusal(failure);
      toast({ title: "Profile Not Saved", description, variant: "destructive" });
      error.show(description, fieldOfProfileError(description));
    } finally {
      setBusy(false);
    }
  };

  return (
    <PageContainer className="max-w-xl">
      <h1 className="font-serif text-3xl font-bold">Your profile</h1>
      <Card className="mt-6 p-6">
        <p className="text-sm text-muted">Signed in as {user?.email}</p>
        <form onSubmit={submit} className="mt-4 space-y-4">
          <FormError id={error.errorId} message={error.message} />
          <TextField
            {...error.field("firstName")}
            label="First name"
            name="firstName"
            autoComplete="given-name"
            required
            maxLength={255}
            value={firstName}
            onChange={(e) => setFirstName(e.target.value)}
          />
          <TextField
            {...error.field("lastName")}
            label="Last name"
            name="lastName"
            autoComplete="family-name"
            required
            maxLength={255}
            value={lastName}
            onChange={(e) => setLastName(e.target.value)}
            hint="This is the name printed on your certificates."
          />
          <NameOrderField
            {...error.field("nameOrder")}
            value={nameOrder}
            onChange={setNameOrder}
            firstName={firstName}
            lastName={lastName}
          />
          <Button type="submit" disabled={busy}>
            {busy ? "Saving..." : "Save"}
          </Button>
        </form>
      </Card>
      <PractitionerListingForm />
      <YourData />
    </PageContainer>
  );
}
