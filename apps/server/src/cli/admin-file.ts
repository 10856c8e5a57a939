import { join } from 'node:path';

/**
 * DATA_DIR/admin.json: written by a running server (mode 0600), removed when it stops. It tells the admin
 * CLI where the server's admin RPC is and the token that opens it.
 */
export interface AdminFile {
  url: string;
  token: string;
}

export const adminFileOf = (dataDir: string) => join(dataDir, 'admin.json');
