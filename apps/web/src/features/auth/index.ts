// The auth feature's public face: what other features may use of it (scripts/check-boundaries.mjs).
export { rememberRedirect } from './redirect';
export { type Session, useSession, useUser } from './session';
export { signOut } from './signOut';
