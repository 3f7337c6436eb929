import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import * as t from 'io-ts';
import { isLeft } from 'fp-ts/lib/Either.js';
import { oneOf } from '../event-codecs/fields.js';

const Base64Url = t.refinement(t.string, (s) => /^[A-Za-z0-9_-]{1,8192}$/.test(s), 'Base64URLString');
const Common = {
  id: Base64Url,
  rawId: Base64Url,
  clientExtensionResults: t.UnknownRecord,
  type: t.literal('public-key'),
};
const Attachment = t.partial({ authenticatorAttachment: oneOf(['platform', 'cross-platform'], 'AuthenticatorAttachment') });

/** What @simplewebauthn/browser's startRegistration gives, as the form's `response` field carries it. */
const RegistrationResponse = t.intersection([
  t.type({
    ...Common,
    response: t.intersection([
      t.type({ clientDataJSON: Base64Url, attestationObject: Base64Url }),
      t.partial({ authenticatorData: Base64Url, transports: t.array(t.string), publicKeyAlgorithm: t.number, publicKey: Base64Url }),
    ]),
  }),
  Attachment,
]);

/** What startAuthentication gives. */
const AuthenticationResponse = t.intersection([
  t.type({
    ...Common,
    response: t.intersection([t.type({ clientDataJSON: Base64Url, authenticatorData: Base64Url, signature: Base64Url }), t.partial({ userHandle: Base64Url })]),
  }),
  Attachment,
]);

function parsed<A>(codec: t.Decoder<unknown, A>, text: string): A | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const decoded = codec.decode(value);
  return isLeft(decoded) ? null : decoded.right;
}

export const registrationResponse = (text: string): RegistrationResponseJSON | null => parsed(RegistrationResponse, text);
export const authenticationResponse = (text: string): AuthenticationResponseJSON | null => parsed(AuthenticationResponse, text);
