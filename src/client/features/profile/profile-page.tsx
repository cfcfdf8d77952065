import { type FormEvent, useState } from "react";
import { Button } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/form.tsx";
import { Card, PageContainer } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { ApiError } from "#client/lib/api-client.ts";
import { useCurrentUser } from "#client/lib/session.ts";
import { useDocumentMeta } from "#client/lib/use-document-meta.ts";
import { BRAND_NAME } from "#shared/constants.ts";
import { useUpdateProfile } from "./api.ts";
import { PractitionerListingForm } from "./practitioner-listing-form.tsx";

export default function ProfilePage() {
  useDocumentMeta({ title: `Your profile | ${BRAND_NAME}` });
  const { user } = useCurrentUser();
  const toast = useToast();
  const updateProfile = useUpdateProfile();
  const [firstName, setFirstName] = useState(user?.firstName ?? "");
  const [lastName, setLastName] = useState(user?.lastName ?? "");
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await updateProfile.mutateAsync({ firstName: firstName.trim(), lastName: lastName.trim() });
      toast({
        title: "Profile Updated",
        description: "Certificates you earn from now on use this name. Existing ones can be reissued from their page.",
      });
    } catch (error) {
      toast({
        title: "Profile Not Saved",
        description: (error instanceof ApiError && error.serverMessage) || "Please try again.",
        variant: "destructive",
      });
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
          <TextField
            label="First name"
            name="firstName"
            autoComplete="given-name"
            required
            maxLength={255}
            value={firstName}
            onChange={(e) => setFirstName(e.target.value)}
          />
          <TextField
            label="Last name"
            name="lastName"
            autoComplete="family-name"
            required
            maxLength={255}
            value={lastName}
            onChange={(e) => setLastName(e.target.value)}
            hint="This is the name printed on your certificates."
          />
          <Button type="submit" disabled={busy}>
            {busy ? "Saving..." : "Save"}
          </Button>
        </form>
      </Card>
      <PractitionerListingForm />
    </PageContainer>
  );
}
