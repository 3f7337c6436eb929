import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { DomainError, invalid, rateLimited } from '../domain/errors.js';
import {
  type SecondFactorCommand, type SecondFactorsState, type SecondStepMethod, secondFactorsDecider, secondFactorsStream, secondStepLockedUntil,
} from '../domain/identity/second-factors.js';
import { type Actor, handleCommand, loadState } from './command-handler.js';
import { type CommandContext, nowIso } from './context.js';
import { type RelyingParty, verifiedAuthentication, verifiedRegistration } from './passkeys.js';
import { hashRecoveryCode, newRecoveryCodes } from './recovery-codes.js';
import type { SecretBox } from './secret-box.js';
import { openTotpEnrolment, openTotpSeed, sealTotpSeed, totpStepOf } from './totp.js';

/** What a change to a person's factors gives back: the recovery codes to show once, when it made some. */
export interface FactorChange {
  recoveryCodes: string[] | null;
  position: number | null;
}

export async function secondFactorsOf(context: CommandContext, userId: string): Promise<SecondFactorsState> {
  return (await loadState(context.events, secondFactorsStream(userId), secondFactorsDecider)).state;
}

async function run(context: CommandContext, userId: string, command: SecondFactorCommand, actor: Actor) {
  return handleCommand(context, secondFactorsStream(userId), secondFactorsDecider, command, actor);
}

/** Runs a command that may bring a set of recovery codes (a first factor, or a new set), keeping the codes only if it did. */
async function withCodes(context: CommandContext, userId: string, build: (hashes: string[]) => SecondFactorCommand, actor: Actor): Promise<FactorChange> {
  const codes = newRecoveryCodes();
  const outcome = await run(context, userId, build(codes.map(hashRecoveryCode)), actor);
  const generated = outcome.events.some((event) => event.type === 'RecoveryCodesGenerated');
  return { recoveryCodes: generated ? codes : null, position: outcome.position };
}

/** Adds the authenticator app whose seed the enrolment page showed, once a code from it proves the person has it. */
export async function addTotpFactor(
  context: CommandContext,
  secrets: SecretBox,
  input: { user_id: string; factor_id: string; name: string; pending: string; code: string },
  actor: Actor,
): Promise<FactorChange> {
  const now = context.clock();
  const seed = openTotpEnrolment(secrets, input.pending, input.user_id, now);
  if (seed === null) throw invalid('this set-up page has expired: start again to get a new QR code');
  const step = totpStepOf(seed, input.code, now);
  if (step === null) throw invalid('that code is not the one your app shows now: check the app’s clock and try the next code');
  return withCodes(context, input.user_id, (hashes) => ({
    type: 'AddTotpFactor', user_id: input.user_id, factor_id: input.factor_id, name: input.name, seed_sealed: sealTotpSeed(secrets, seed),
    confirmed_step: step, recovery_code_hashes: hashes, now: now.toISOString(),
  }), actor);
}

/** Adds the passkey the browser just created, once its attestation checks out against the challenge this server gave. */
export async function addPasskeyFactor(
  context: CommandContext,
  input: { user_id: string; factor_id: string; name: string; rp: RelyingParty; response: RegistrationResponseJSON; challenge: string },
  actor: Actor,
): Promise<FactorChange> {
  const passkey = await verifiedRegistration(input.rp, input.response, input.challenge);
  if (!passkey) throw invalid('the passkey your browser made could not be verified: try again');
  return withCodes(context, input.user_id, (hashes) => ({
    type: 'AddPasskey', user_id: input.user_id, factor_id: input.factor_id, name: input.name, credential_id: passkey.credentialId, public_key: passkey.publicKey,
    counter: passkey.counter, transports: passkey.transports, recovery_code_hashes: hashes, now: nowIso(context),
  }), actor);
}

export async function removeSecondFactor(context: CommandContext, input: { user_id: string; factor_id: string }, actor: Actor): Promise<{ position: number | null }> {
  const outcome = await run(context, input.user_id, { type: 'RemoveSecondFactor', ...input, now: nowIso(context) }, actor);
  return { position: outcome.position };
}

export async function regenerateRecoveryCodes(context: CommandContext, userId: string, actor: Actor): Promise<FactorChange> {
  return withCodes(context, userId, (hashes) => ({ type: 'GenerateRecoveryCodes', user_id: userId, recovery_code_hashes: hashes, now: nowIso(context) }), actor);
}

/** Why an answer was wrong: `reason` for the log (a short code), `message` for the person. */
interface Wrong {
  wrong: string;
  message: string;
}

/** What the decider's refusal of a use means, as the log records it. */
const REFUSED: Record<SecondStepMethod, string> = { totp: 'code_already_used', passkey: 'counter_went_back', recovery_code: 'unknown_recovery_code' };

/**
 * One attempt at the second step: refused outright while the account waits out its failures;
 * otherwise `verify` says which command a right answer makes, or why the answer is wrong. A wrong
 * answer, and one the decider refuses (a replayed code, a counter gone back), is recorded as
 * SecondFactorFailed and refused with the message the person sees.
 */
async function secondStep(
  context: CommandContext,
  input: { user_id: string; client_address: string | null },
  method: SecondStepMethod,
  actor: Actor,
  verify: (state: SecondFactorsState) => Promise<SecondFactorCommand | Wrong>,
): Promise<{ position: number | null }> {
  const state = await secondFactorsOf(context, input.user_id);
  const now = nowIso(context);
  const until = secondStepLockedUntil(state, now);
  if (until) throw rateLimited(`too many wrong attempts: try again in ${Math.max(1, Math.ceil((Date.parse(until) - Date.parse(now)) / 60_000))} min`);
  const fail = async (reason: string, message: string) => {
    await run(context, input.user_id, { type: 'RecordSecondFactorFailure', user_id: input.user_id, method, reason, client_address: input.client_address, now }, actor);
    return invalid(message);
  };
  const verdict = await verify(state);
  if ('wrong' in verdict) throw await fail(verdict.wrong, verdict.message);
  try {
    return { position: (await run(context, input.user_id, verdict, actor)).position };
  } catch (error) {
    if (error instanceof DomainError && (error.reason === 'invalid' || error.reason === 'not_found')) {
      throw await fail(error.reason === 'invalid' ? REFUSED[method] : 'no_such_factor', error.message);
    }
    throw error;
  }
}

export function signInWithTotp(context: CommandContext, secrets: SecretBox, input: { user_id: string; code: string; client_address: string | null }, actor: Actor) {
  return secondStep(context, input, 'totp', actor, async (state) => {
    if (!state.totp) return { wrong: 'no_such_factor', message: 'no authenticator app is set up for this account' };
    const step = totpStepOf(openTotpSeed(secrets, state.totp.seedSealed), input.code, context.clock());
    if (step === null) return { wrong: 'wrong_code', message: 'that code is not right: enter the six digits your app shows now' };
    return { type: 'UseTotp', user_id: input.user_id, step, client_address: input.client_address, now: nowIso(context) };
  });
}

export function signInWithRecoveryCode(context: CommandContext, input: { user_id: string; code: string; client_address: string | null }, actor: Actor) {
  return secondStep(context, input, 'recovery_code', actor, async () => ({
    type: 'UseRecoveryCode', user_id: input.user_id, code_hash: hashRecoveryCode(input.code), client_address: input.client_address, now: nowIso(context),
  }));
}

export function signInWithPasskey(
  context: CommandContext,
  input: { user_id: string; rp: RelyingParty; response: AuthenticationResponseJSON; challenge: string; client_address: string | null; alone?: boolean },
  actor: Actor,
) {
  return secondStep(context, input, 'passkey', actor, async (state) => {
    const passkey = [...state.passkeys.values()].find((p) => p.credentialId === input.response.id);
    if (!passkey) return { wrong: 'unknown_passkey', message: 'that passkey is not one of this account’s' };
    // Alone, the passkey stands for the password too: the authenticator must have verified the person.
    const counter = await verifiedAuthentication(input.rp, input.response, input.challenge, passkey, input.alone ?? false);
    if (counter === null) return { wrong: 'unverified_passkey', message: 'that passkey could not be verified: try again' };
    return { type: 'UsePasskey', user_id: input.user_id, credential_id: passkey.credentialId, counter, client_address: input.client_address, now: nowIso(context) };
  });
}
