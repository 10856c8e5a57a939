/**
 * What a client log entry may say about a person (decision "Client logs"): no e-mail address, and no link's
 * query or fragment (a pasted product link can carry a session, a coupon or a name). The route comes without its
 * query already; messages are scrubbed here, whatever the browser sent.
 */
const EMAIL = /[^\s@<>()"']+@[^\s@<>()"']+\.[a-z]{2,}/gi;
const LINK_TAIL = /(https?:\/\/[^\s?#"']+)[?#][^\s"',;)]*/gi;

export const scrub = (text: string): string => text.replace(EMAIL, '[email]').replace(LINK_TAIL, '$1');
