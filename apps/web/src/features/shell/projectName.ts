import { ProjectName } from '@reelsmith/contract';

/**
 * The name to send to the rename call when the inline editor closes, or null to keep the current one:
 * the draft trimmed, non-empty, at most PROJECT_NAME_MAX characters and different from the current name.
 */
export function nameToRename(draft: string, current: string): string | null {
  const parsed = ProjectName.safeParse(draft);
  return parsed.success && parsed.data !== current ? parsed.data : null;
}
