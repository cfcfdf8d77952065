import { useToast } from "#client/components/ui/toast.tsx";
import { refusal } from "#client/lib/api-client.ts";
import type { Certificate } from "#shared/schemas/certificates.ts";
import { downloadCertificatePdf, shareCertificate } from "./api.ts";

export function useCertificateActions() {
  const toast = useToast();
  return {
    download: async (c: Certificate) => {
      try {
        await downloadCertificatePdf(c.certificateId);
        toast({ title: "Download Started", description: `certificate-${c.certificateId}.pdf` });
      } catch (error) {
        toast({
          title: "Download Failed",
          description: refusal(error),
          variant: "destructive",
        });
      }
    },
    share: async (c: Certificate) => {
      try {
        const how = await shareCertificate(c);
        if (how === "copied") toast({ title: "Share Link Copied", description: c.verifyUrl });
        if (how === "failed")
          toast({
            title: "Copy Failed",
            description: `Copy this link by hand: ${c.verifyUrl}`,
            variant: "destructive",
          });
      } catch {
        // The person closed the share sheet.
      }
    },
  };
}
