import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Seals channel configs (webhook URLs, tokens, keys) and uptime header values with AES-256-GCM
 * before they enter any event or document; only the notifier opens the configs, at delivery time,
 * and only the checker the header values, to send them. Sealed text: `v1.<iv>.<tag>.<data>`.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  /** `VIGIL_SECRET_KEY`: 32 bytes as 64 hex characters or base64. */
  static fromEncodedKey(encoded: string): SecretBox {
    const key = /^[0-9a-f]{64}$/i.test(encoded) ? Buffer.from(encoded, 'hex') : Buffer.from(encoded, 'base64');
    if (key.length !== 32) throw new Error('VIGIL_SECRET_KEY must be 32 bytes, as 64 hex characters or base64');
    return new SecretBox(key);
  }

  /** Embedded mode: the key lives in a file beside the data, created once, readable by its owner only. */
  static fromKeyFile(path: string): SecretBox {
    if (!existsSync(path)) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    }
    chmodSync(path, 0o600);
    return SecretBox.fromEncodedKey(readFileSync(path, 'utf8').trim());
  }

  static random(): SecretBox {
    return new SecretBox(randomBytes(32));
  }

  seal(value: unknown): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(value), 'utf8'), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  open(sealed: string): unknown {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return JSON.parse(Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8'));
  }

  /** A sealed channel config, opened: its fields, or none if it held anything but an object. */
  openConfig(sealed: string): Record<string, unknown> {
    const opened: unknown = this.open(sealed);
    return typeof opened === 'object' && opened !== null && !Array.isArray(opened) ? Object.fromEntries(Object.entries(opened)) : {};
  }
}
