import { type FormEvent, useEffect, useId, useState } from "react";
import { Link } from "react-router";
import { Button } from "#client/components/ui/button.tsx";
import { TextField } from "#client/components/ui/form.tsx";
import { Card } from "#client/components/ui/misc.tsx";
import { useToast } from "#client/components/ui/toast.tsx";
import { paths } from "#client/config/paths.ts";
import { refusal } from "#client/lib/api-client.ts";
import { practitionerListingInputSchema } from "#shared/schemas/practitioners.ts";
import { useOwnPractitionerListing, useRemovePractitionerListing, useSavePractitionerListing } from "./api.ts";

const EMPTY = { displayName: "", region: "", bio: "", contactUrl: "" };

/** Opting in to, updating and leaving the public practitioner directory. */
export function PractitionerListingForm() {
  const own = useOwnPractitionerListing();
  const save = useSavePractitionerListing();
  const remove = useRemovePractitionerListing();
  const toast = useToast();
  const bioId = useId();
  const errorId = useId();
  const [form, setForm] = useState(EMPTY);
  const [error, setError] = useState<string | null>(null);
  const listing = own.data?.listing ?? null;

  useEffect(() => {
    if (listing) setForm(listing);
  }, [listing]);

  if (own.isPending) return null;
  const eligible = own.data?.eligible ?? false;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const parsed = practitionerListingInputSchema.safeParse(form);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? "Please check the form.");
      return;
    }
    setError(null);
    try {
      await save.mutateAsync(parsed.data);
      toast({ title: listing ? "Listing Updated" : "You Are Listed", description: "Your card is in the directory." });
    } catch (e) {
      setError(refusal(e));
    }
  };

  const optOut = async () => {
    try {
      await remove.mutateAsync();
      setForm(EMPTY);
      toast({ title: "Listing Removed", description: "You are no longer in the practitioner directory." });
    } catch (e) {
      setError(refusal(e));
    }
  };

  return (
    <Card className="mt-6 p-6">
      <h2 className="text-xl font-semibold">Practitioner directory</h2>
      <p className="mt-2 text-sm text-slate-700">
        Holders of a valid certificate can be listed in the public{" "}
        <Link to={paths.practitioners} className="text-brand-800 underline">
          practitioner directory
        </Link>
        . Everything you enter here is public. {listing ? "You are listed." : "You are not listed."}
      </p>
      {!eligible && !listing ? (
        <p className="mt-3 text-sm text-muted">You can list yourself once you hold a valid certificate.</p>
      ) : (
        <form onSubmit={submit} className="mt-4 space-y-4" noValidate>
          <TextField
            label="Public display name"
            name="displayName"
            required
            maxLength={80}
            value={form.displayName}
            onChange={(e) => setForm({ ...form, displayName: e.target.value })}
          />
          <TextField
            label="City or region"
            name="region"
            required
            maxLength={80}
            value={form.region}
            onChange={(e) => setForm({ ...form, region: e.target.value })}
          />
          <div>
            <label htmlFor={bioId} className="mb-1 block text-sm font-medium text-slate-800">
              Short bio
            </label>
            <textarea
              id={bioId}
              name="bio"
              required
              maxLength={500}
              rows={4}
              className="w-full rounded-lg border border-slate-300 bg-white px-3 py-2 text-base"
              value={form.bio}
              onChange={(e) => setForm({ ...form, bio: e.target.value })}
            />
          </div>
          <TextField
            label="Contact link"
            name="contactUrl"
            required
            maxLength={300}
            placeholder="https://… or mailto:you@example.com"
            hint="A web address starting with https:// or an e-mail link starting with mailto:."
            value={form.contactUrl}
            onChange={(e) => setForm({ ...form, contactUrl: e.target.value })}
          />
          {error && (
            <p id={errorId} role="alert" className="text-sm text-red-800">
              {error}
            </p>
          )}
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={!eligible} pending={save.isPending}>
              {listing ? "Update listing" : "List me in the directory"}
            </Button>
            {listing && (
              <Button type="button" variant="secondary" onClick={optOut} pending={remove.isPending}>
                Remove me from the directory
              </Button>
            )}
          </div>
        </form>
      )}
    </Card>
  );
}
