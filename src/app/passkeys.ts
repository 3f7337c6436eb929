import {
  type AuthenticationResponseJSON, type PublicKeyCredentialCreationOptionsJSON, type PublicKeyCredentialRequestOptionsJSON, type RegistrationResponseJSON,
  generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { PasskeyState } from '../domain/identity/second-factors.js';

/**
 * Who the browser talks to: the relying party is the host name the page was served from (WebAuthn
 * binds a passkey to it), and the origin is the page's own. Both come from the request, so a
 * passkey added at https://vigil.example.com works there and nowhere else.
 */
export interface RelyingParty {
  rpID: string;
  origin: string;
}

/** How long the browser gives a person to touch their authenticator; the challenge lives as long, plus a little. */
export const PASSKEY_TIMEOUT_MS = 120_000;

export async function passkeyRegistrationOptions(
  rp: RelyingParty,
  person: { userId: string; email: string; name: string },
  existing: readonly PasskeyState[],
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: 'Vigil',
    rpID: rp.rpID,
    userName: person.email,
    userDisplayName: person.name,
    userID: new TextEncoder().encode(person.userId),
    timeout: PASSKEY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: [...p.transports] })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
}

export interface VerifiedPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

/** The new credential, once its attestation checks out against the challenge given; null when it does not. */
export async function verifiedRegistration(rp: RelyingParty, response: RegistrationResponseJSON, challenge: string): Promise<VerifiedPasskey | null> {
  try {
    const verified = await verifyRegistrationResponse({
      response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.rpID, requireUserVerification: false,
    });
    if (!verified.verified) return null;
    const { credential } = verified.registrationInfo;
    return {
      credentialId: credential.id,
      publicKey: Buffer.from(credential.publicKey).toString('base64url'),
      counter: credential.counter,
      transports: credential.transports ?? response.response.transports ?? [],
    };
  } catch {
    return null;
  }
}

/**
 * Options for a second step (the account's passkeys listed, presence enough), or with no passkeys
 * given, for a sign-in by passkey alone: the browser offers whichever passkeys it holds for this
 * site, and the authenticator must verify the person (PIN, fingerprint), as it stands for both steps.
 */
export async function passkeyAuthenticationOptions(rp: RelyingParty, passkeys: readonly PasskeyState[] | null): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: rp.rpID,
    timeout: PASSKEY_TIMEOUT_MS,
    userVerification: passkeys === null ? 'required' : 'preferred',
    ...(passkeys === null ? {} : { allowCredentials: passkeys.map((p) => ({ id: p.credentialId, transports: [...p.transports] })) }),
  });
}

/** The passkey's new counter once its signature over the challenge checks out; null when it does not. */
export async function verifiedAuthentication(
  rp: RelyingParty,
  response: AuthenticationResponseJSON,
  challenge: string,
  passkey: PasskeyState,
  requireUserVerification = false,
): Promise<number | null> {
  try {
    const verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: rp.origin,
      expectedRPID: rp.rpID,
      requireUserVerification,
      credential: { id: passkey.credentialId, publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')), counter: passkey.counter, transports: [...passkey.transports] },
    });
    return verified.verified ? verified.authenticationInfo.newCounter : null;
  } catch {
    // A counter that went backwards lands here too (the library refuses it as the decider would).
    return null;
  }
}

/** Whose passkey answered a sign-in by passkey alone: the user id it was made with (its user handle), or null. */
export function userOfPasskeyResponse(response: AuthenticationResponseJSON): string | null {
  const handle = response.response.userHandle;
  if (!handle) return null;
  const userId = Buffer.from(handle, 'base64url').toString('utf8');
  return /^[A-Za-z0-9_-]{1,64}$/.test(userId) ? userId : null;
}
