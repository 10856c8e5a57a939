// The public API's calls and document, apart from the main entry so the web app never bundles them
// (`@reelsmith/contract/public-api`).
export * from './openapi.js';
export * from './publicApi.js';
