/**
 * The credit card slot of the header, shown to active users only. Credits arrive with the next issue;
 * until then it shows nothing rather than a made-up balance.
 */
export function CreditCard() {
  return null;
}
