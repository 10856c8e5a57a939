/** The app's pages the extension opens (apps/web's PATHS), and how to tell where a tab of the app is. */

const LINK_TO_VIDEO_PATH = '/tools/link-to-video';
const LOGIN_PATH = '/account/login';
const PRIVACY_POLICY_PATH = '/public/chrome/privacy-policy';
/** Sign-in and activation pages: the user is still on the way in while the tab shows one of these. */
const SIGN_IN_PATHS = '/account/';

export interface Arrival {
  inputLink: string;
  resKey: string;
  resUrl: string | null;
  deviceFingerprint: string;
}

/** Link to video with the captured page: the app creates the project and clears these parameters (spec "States and transitions"). */
export function linkToVideoUrl(appOrigin: string, arrival: Arrival): string {
  const url = new URL(LINK_TO_VIDEO_PATH, appOrigin);
  url.searchParams.set('inputLink', arrival.inputLink);
  url.searchParams.set('resKey', arrival.resKey);
  if (arrival.resUrl) url.searchParams.set('resUrl', arrival.resUrl);
  url.searchParams.set('deviceFingerprint', arrival.deviceFingerprint);
  return url.href;
}

export const loginUrl = (appOrigin: string) => new URL(LOGIN_PATH, appOrigin).href;
export const privacyPolicyUrl = (appOrigin: string) => new URL(PRIVACY_POLICY_PATH, appOrigin).href;

/** Whether a tab's address shows the app past sign-in (and activation): the moment to finish a waiting capture. */
export function isSignedInPage(appOrigin: string, address: string | undefined): boolean {
  if (!address) return false;
  try {
    const url = new URL(address);
    return url.origin === appOrigin && !url.pathname.startsWith(SIGN_IN_PATHS);
  } catch {
    return false;
  }
}
