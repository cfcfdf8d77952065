import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { SHARE_IMAGE_SIZE } from "#shared/share-image-routes.ts";
import type { ShareCard } from "./share-cards.ts";

// Loaded on the first share image only (share-images.ts imports this file lazily), and so are satori,
// resvg's native binding and the fonts: no page pays for them (decision 0067).

// The project folder, as the certificate PDF finds them.
const FONT_DIR = resolve("assets/fonts");

type SatoriFont = { name: string; data: Buffer; weight: 400 | 700; style: "normal" };
/** The certificate PDF's Noto faces; the other scripts' files are read only for a name that needs them. */
const SCRIPT_FACES: { file: string; covers: RegExp }[] = [
  { file: "NotoSansSC-Bold.ttf", covers: /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/ },
  { file: "NotoSansKR-Bold.ttf", covers: /[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]/ },
  { file: "NotoSansArabic-Bold.ttf", covers: /[\u0600-\u06ff\u0750-\u077f]/ },
  { file: "NotoSansHebrew-Bold.ttf", covers: /[\u0590-\u05ff]/ },
];
const fontFiles = new Map<string, Promise<Buffer>>();
const fontFile = (file: string) => {
  let data = fontFiles.get(file);
  if (!data) {
    data = readFile(resolve(FONT_DIR, file));
    fontFiles.set(file, data);
  }
  return data;
};

async function fontsFor(text: string): Promise<SatoriFont[]> {
  const fonts: SatoriFont[] = [
    { name: "Noto Sans", data: await fontFile("NotoSans-Regular.ttf"), weight: 400, style: "normal" },
    { name: "Noto Sans", data: await fontFile("NotoSans-Bold.ttf"), weight: 700, style: "normal" },
  ];
  for (const face of SCRIPT_FACES)
    if (face.covers.test(text))
      fonts.push({
        name: face.file.replace(/-Bold\.ttf$/, ""),
        data: await fontFile(face.file),
        weight: 700,
        style: "normal",
      });
  return fonts;
}

const BADGE = {
  valid: { background: "#dcfce7", color: "#14532d" },
  expired: { background: "#fef3c7", color: "#78350f" },
  revoked: { background: "#fee2e2", color: "#7f1d1d" },
} as const;

function Card({ card }: { card: ShareCard }) {
  const [from, to] = card.background;
  const titleSize = card.title.length > 60 ? 56 : card.title.length > 34 ? 68 : 80;
  return (
    <div
      style={{
        width: SHARE_IMAGE_SIZE.width,
        height: SHARE_IMAGE_SIZE.height,
        boxSizing: "border-box",
        display: "flex",
        flexDirection: "column",
        justifyContent: "space-between",
        padding: "64px 72px",
        backgroundImage: `linear-gradient(135deg, ${from}, ${to})`,
        color: "#ffffff",
        fontFamily: "Noto Sans",
      }}
    >
      <div style={{ display: "flex", fontSize: 30, fontWeight: 700, letterSpacing: 1 }}>{card.eyebrow}</div>
      <div style={{ display: "flex", flexDirection: "column" }}>
        <div style={{ display: "flex", fontSize: titleSize, fontWeight: 700, lineHeight: 1.1 }}>{card.title}</div>
        {card.lines.map((line) => (
          <div key={line} style={{ display: "flex", marginTop: 20, fontSize: 36, fontWeight: 400, lineHeight: 1.25 }}>
            {line}
          </div>
        ))}
        {card.badge ? (
          <div
            style={{
              display: "flex",
              alignSelf: "flex-start",
              marginTop: 36,
              padding: "10px 28px",
              borderRadius: 999,
              fontSize: 34,
              fontWeight: 700,
              ...BADGE[card.badge.tone],
            }}
          >
            {card.badge.text}
          </div>
        ) : null}
      </div>
      <div style={{ display: "flex", fontSize: 28 }}>{card.footer}</div>
    </div>
  );
}

/** The card drawn as a 1200x630 PNG. */
export async function renderShareImage(card: ShareCard): Promise<Buffer> {
  const [{ default: satori }, { Resvg }] = await Promise.all([import("satori"), import("@resvg/resvg-js")]);
  const text = [card.eyebrow, card.title, ...card.lines, card.footer, card.badge?.text ?? ""].join(" ");
  const svg = await satori(<Card card={card} />, { ...SHARE_IMAGE_SIZE, fonts: await fontsFor(text) });
  return new Resvg(svg, { fitTo: { mode: "width", value: SHARE_IMAGE_SIZE.width } }).render().asPng();
}
