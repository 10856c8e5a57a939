import { HttpUrl } from '@reelsmith/contract';

// What the landing needs only once a link is given: the URL schema and the project's code (its controller, the
// contract's schemas and zod). The landing loads this module on the link box's first focus or submit, not with the
// page (decision "First-load bundle split").
export { createProject } from './project/open';

/** The product link, trimmed, when it is a full http(s) address; else null. */
export function parseProductLink(value: string): string | null {
  const parsed = HttpUrl.safeParse(value.trim());
  return parsed.success ? parsed.data : null;
}
