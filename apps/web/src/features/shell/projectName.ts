import { ProjectName } from '@reelsmith/contract';

/**
 * The name to send to the rename call when the inline editor closes, or null to keep the current one:
 * the draft trimmed, non-empty, at most PROJECT_NAME_MAX characters and different from the current name.
 */
export function nameToRename(draft: string, current: string): string | null {
  const parsed = ProjectName.safeParse(draft);
  return parsed.success && parsed.data !== current ? parsed.data : null;
}

/**
 * A tool page without a project (video, image, image edit) keeps the name the user gave it on this device, one per
 * tool, so it survives a reload (decision "Tool page names").
 */
const toolNameKey = (toolModule: string) => `reelsmith-tool-name-${toolModule}`;

export function savedToolName(toolModule: string): string | null {
  try {
    return localStorage.getItem(toolNameKey(toolModule));
  } catch {
    // Storage refused (private mode, quota): the page shows the tool's label, as before anything was saved.
    return null;
  }
}

export function saveToolName(toolModule: string, name: string): void {
  try {
    localStorage.setItem(toolNameKey(toolModule), name);
  } catch {
    // Storage refused: the name stays on screen for this visit only.
  }
}
