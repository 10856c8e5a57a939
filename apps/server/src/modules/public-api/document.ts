// docs/openapi.json: the public API's document for a server at the default address, written from the contract by
// `npm run openapi:docs`; a test fails when the file and the contract disagree (decision "Public API").
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PUBLIC_API_BASE, publicApiDocument } from '@reelsmith/contract/public-api';

export const OPENAPI_FILE = join(resolve(dirname(fileURLToPath(import.meta.url)), '../../../../..'), 'docs/openapi.json');
const DOCUMENTED_SERVER = `http://127.0.0.1:3000/reelsmith/api${PUBLIC_API_BASE}`;

export const documentText = () => `${JSON.stringify(publicApiDocument(DOCUMENTED_SERVER), null, 2)}\n`;
