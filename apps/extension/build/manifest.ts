/**
 * manifest.json, made at build time so the shop list and the app origin have one source each. Permissions are
 * the least the extension works with: activeTab + scripting to read the page the user asks for, storage for
 * the options, the configured app origin as the only host permission (other app addresses are optional and
 * asked for in the options), and the recognised shops for the floating button's content script.
 */
import { SHOP_MATCHES } from '../src/shops';

export function manifest(version: string, appOrigin: string) {
  const icons = Object.fromEntries([16, 32, 48, 128].map((size) => [String(size), `icons/icon-${size}.png`]));
  return {
    manifest_version: 3,
    name: '__MSG_extName__',
    description: '__MSG_extDescription__',
    version,
    default_locale: 'en',
    icons,
    action: { default_popup: 'popup.html', default_title: '__MSG_actionTitle__', default_icon: icons },
    options_page: 'options.html',
    background: { service_worker: 'background.js', type: 'module' },
    content_scripts: [{ matches: SHOP_MATCHES, js: ['content.js'], run_at: 'document_idle' }],
    permissions: ['activeTab', 'scripting', 'storage'],
    host_permissions: [`${appOrigin}/*`],
    optional_host_permissions: ['https://*/*', 'http://*/*'],
    content_security_policy: { extension_pages: "script-src 'self'; object-src 'self'" },
  };
}
