/** The tool a page belongs to; the header labels the project with it (spec §2 project name). */
export type ToolModule = 'linkToVideo' | 'video' | 'image' | 'imageEdit';
