import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Passwords are hashed with scrypt from Node's own crypto (OpenSSL): memory-hard, so guessing
 * costs memory as well as time on a GPU, and no native addon to build or keep patched beside
 * better-sqlite3. N = 2^15, r = 8, p = 1: 32 MiB and about 0.1 s per hash on an idle core
 * (measured at 1.3 s on a 2-core machine shared by eight test runs), run on libuv's thread pool so
 * the server's event loop goes on meanwhile. The parameters are stored with each hash (a PHC
 * string), so they can be raised later without invalidating the hashes already kept.
 */
export const SCRYPT = { logN: 15, r: 8, p: 1, keyLength: 32, saltLength: 16 } as const;

/** NIST SP 800-63B: at least 8 characters, at least 64 allowed; we ask for 10 and take up to 1024 (a hash of a longer one costs no more). */
export const PASSWORD_LENGTH = { min: 10, max: 1024 } as const;

const PHC = /^\$scrypt\$ln=(\d{1,2}),r=(\d{1,2}),p=(\d{1,2})\$([A-Za-z0-9+/]+)\$([A-Za-z0-9+/]+)$/;

function derive(password: string, salt: Buffer, logN: number, r: number, p: number, length: number): Promise<Buffer> {
  const N = 2 ** logN;
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, length, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

const b64 = (buffer: Buffer) => buffer.toString('base64').replace(/=+$/, '');

/** Why a password is not acceptable, or null. Length alone (NIST): no composition rules. */
export function passwordProblem(password: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_LENGTH.min) return `Use at least ${PASSWORD_LENGTH.min} characters`;
  if (length > PASSWORD_LENGTH.max) return `Use at most ${PASSWORD_LENGTH.max} characters`;
  return null;
}

/** `$scrypt$ln=15,r=8,p=1$<salt>$<hash>`, with a fresh random salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(SCRYPT.saltLength);
  const key = await derive(password, salt, SCRYPT.logN, SCRYPT.r, SCRYPT.p, SCRYPT.keyLength);
  return `$scrypt$ln=${SCRYPT.logN},r=${SCRYPT.r},p=${SCRYPT.p}$${b64(salt)}$${b64(key)}`;
}

/** A hash of nothing anyone knows: checked against when the email names no one, so that answer takes as long as a wrong password. */
let dummy: Promise<string> | null = null;

/**
 * Whether `password` matches `stored`; with `stored` null (no such account, or no password set)
 * a hash is still computed, and false is the answer: the same time either way.
 */
export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  dummy ??= hashPassword(randomBytes(16).toString('hex'));
  const match = PHC.exec(stored ?? (await dummy));
  if (!match) return false;
  const [, logN, r, p, salt, expected] = match;
  if (Number(logN) > 20 || Number(r) > 32 || Number(p) > 16) return false;
  const want = Buffer.from(expected!, 'base64');
  const got = await derive(password.slice(0, PASSWORD_LENGTH.max * 4), Buffer.from(salt!, 'base64'), Number(logN), Number(r), Number(p), want.length);
  return stored !== null && got.length === want.length && timingSafeEqual(got, want);
}
