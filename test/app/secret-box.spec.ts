import { expect } from 'chai';
import { statSync } from 'node:fs';
import { SecretBox } from '../../src/app/secret-box.js';
import { makeTempDir } from '../support/temp-dir.js';

describe('SecretBox', () => {
  it('seals a config so that nothing of it shows, and opens it again', () => {
    const box = SecretBox.random();
    const sealed = box.seal({ webhook_url: 'https://hooks.example.com/T000/B000/XXXX' });
    expect(sealed).to.match(/^v1\./);
    expect(sealed).to.not.include('hooks.example.com');
    expect(box.open(sealed)).to.deep.equal({ webhook_url: 'https://hooks.example.com/T000/B000/XXXX' });
    expect(box.seal({ a: 1 })).to.not.equal(box.seal({ a: 1 }));
  });

  it('refuses a tampered or foreign secret', () => {
    const sealed = SecretBox.random().seal({ a: 1 });
    expect(() => SecretBox.random().open(sealed)).to.throw();
    const box = SecretBox.random();
    const parts = box.seal({ a: 1 }).split('.');
    parts[3] = Buffer.from('{"a":2}').toString('base64url');
    expect(() => box.open(parts.join('.'))).to.throw();
  });

  it('creates its key file once, readable by its owner only, and reuses it', () => {
    const dir = makeTempDir('vigil-key');
    const path = `${dir.path}/secret.key`;
    const sealed = SecretBox.fromKeyFile(path).seal('x');
    expect(statSync(path).mode & 0o777).to.equal(0o600);
    expect(SecretBox.fromKeyFile(path).open(sealed)).to.equal('x');
    dir.remove();
  });

  it('takes a key from the environment as hex or base64, and refuses a short one', () => {
    const hex = 'ab'.repeat(32);
    expect(SecretBox.fromEncodedKey(hex).open(SecretBox.fromEncodedKey(Buffer.from(hex, 'hex').toString('base64')).seal(1))).to.equal(1);
    expect(() => SecretBox.fromEncodedKey('short')).to.throw(/32 bytes/);
  });
});
