// The credits feature's public face: what other features may use of it (scripts/check-boundaries.mjs).
export { CreditCard } from './CreditCard';
export { refreshCredits, useCreditAccount } from './credits';
export { formatHistoryTime } from './format';
