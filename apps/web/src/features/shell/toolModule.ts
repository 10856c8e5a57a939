/** The tool a page belongs to; the header labels the project with it (spec "Screens and routes" project name). */
export type ToolModule = 'linkToVideo' | 'video' | 'image' | 'imageEdit' | 'avatar';
