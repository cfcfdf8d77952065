import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parse as parseYaml } from "yaml";
import type { z } from "zod";
import { firstIssue } from "#shared/schemas/common.ts";
import {
  landingContentSchema,
  practitionerAppContentSchema,
  type SiteContent,
  testimonialsContentSchema,
} from "#shared/schemas/site-content.ts";
import { messageOf } from "../errors.ts";
import { ContentError } from "./content-files.ts";
import { DEFAULT_SITE_CONTENT } from "./site-content-defaults.ts";

export const DEFAULT_SITE_CONTENT_DIR = resolve("content/site");

/** A missing file keeps the defaults; a file that is there must be complete and valid. */
function readFile<T>(dir: string, name: string, schema: z.ZodType<T>): T | undefined {
  const file = join(dir, name);
  if (!existsSync(file)) return undefined;
  let value: unknown;
  try {
    value = parseYaml(readFileSync(file, "utf8"));
  } catch (error) {
    throw new ContentError(`site/${name}: invalid YAML (${messageOf(error).split("\n")[0]})`);
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    const issue = firstIssue(result.error);
    throw new ContentError(`site/${name}: ${issue.path.length ? issue.path.join(".") : "(file)"}: ${issue.message}`);
  }
  return result.data;
}

/**
 * The landing claims and figures, testimonials and practitioner-app texts, read from
 * content/site/*.yaml once per start. Invalid files stop the start with the file, field and problem.
 */
export function loadSiteContent(dir = DEFAULT_SITE_CONTENT_DIR): SiteContent {
  return {
    landing: readFile(dir, "landing.yaml", landingContentSchema) ?? DEFAULT_SITE_CONTENT.landing,
    testimonials:
      readFile(dir, "testimonials.yaml", testimonialsContentSchema)?.testimonials ?? DEFAULT_SITE_CONTENT.testimonials,
    practitionerApp:
      readFile(dir, "practitioner-app.yaml", practitionerAppContentSchema) ?? DEFAULT_SITE_CONTENT.practitionerApp,
  };
}
