// `npm run openapi:docs`: writes docs/openapi.json after a public call changed (modules/public-api/document.ts).
import { readFileSync, writeFileSync } from 'node:fs';
import { documentText, OPENAPI_FILE } from '../modules/public-api/document.js';

const text = documentText();
let before = '';
try {
  before = readFileSync(OPENAPI_FILE, 'utf8');
} catch {
  // not written yet
}
if (text !== before) writeFileSync(OPENAPI_FILE, text);
console.log(`docs/openapi.json: ${text === before ? 'up to date' : 'written'}`);
