import * as oidc from 'openid-client';
import { z } from 'zod';
import type { OidcProfile } from '../users/identity.js';

export interface GoogleSettings {
  clientId: string;
  clientSecret: string;
  issuer: string;
}

/** What the browser carries between the start of a sign-in and the provider's return (in a signed cookie). */
export const PendingSignIn = z.strictObject({ state: z.string(), nonce: z.string(), verifier: z.string() });
export type PendingSignIn = z.infer<typeof PendingSignIn>;

/**
 * Google sign-in with the authorization code flow, PKCE, state and nonce (openid-client). The provider's
 * metadata is discovered on first use and kept; a failed discovery is retried on the next sign-in.
 */
export function createGoogleSignIn(google: GoogleSettings, redirectUri: string) {
  let configuration: Promise<oidc.Configuration> | undefined;
  const issuer = new URL(google.issuer);
  const discover = () => {
    configuration ??= oidc
      .discovery(issuer, google.clientId, google.clientSecret, undefined, {
        // Only test set-ups run an issuer over plain http; Google's is https.
        execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        configuration = undefined;
        throw error;
      });
    return configuration;
  };

  return {
    /** The provider's sign-in page to send the browser to, and what to remember until it returns. */
    async start(): Promise<{ url: string; pending: PendingSignIn }> {
      const config = await discover();
      const pending = { state: oidc.randomState(), nonce: oidc.randomNonce(), verifier: oidc.randomPKCECodeVerifier() };
      const url = oidc.buildAuthorizationUrl(config, {
        redirect_uri: redirectUri,
        scope: 'openid email profile',
        code_challenge: await oidc.calculatePKCECodeChallenge(pending.verifier),
        code_challenge_method: 'S256',
        state: pending.state,
        nonce: pending.nonce,
      });
      return { url: url.href, pending };
    },

    /** Exchanges the code the provider returned for a verified ID token and reads the profile from it. */
    async finish(callbackSearch: string, pending: PendingSignIn): Promise<OidcProfile> {
      const config = await discover();
      const tokens = await oidc.authorizationCodeGrant(config, new URL(`${redirectUri}${callbackSearch}`), {
        pkceCodeVerifier: pending.verifier,
        expectedState: pending.state,
        expectedNonce: pending.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims || typeof claims.email !== 'string') throw new Error('the ID token has no e-mail');
      return {
        // openid-client has checked it against the discovered issuer; with the subject it names the person.
        issuer: claims.iss,
        sub: claims.sub,
        email: claims.email,
        emailVerified: claims.email_verified === true,
        name: typeof claims.name === 'string' ? claims.name : undefined,
        picture: typeof claims.picture === 'string' ? claims.picture : undefined,
      };
    },
  };
}
