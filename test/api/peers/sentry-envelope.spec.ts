import { expect } from 'chai';
import { parseEnvelope } from '../../../src/api/peers/sentry-envelope.js';
import { HttpError } from '../../../src/web/errors.js';

const envelope = (...lines: string[]) => Buffer.from(lines.join('\n'));
const parsed = (bytes: Buffer) => {
  const { header, items } = parseEnvelope(bytes);
  return { header, items: items.map((item) => ({ header: { ...item.header }, payload: item.payload.toString() })) };
};

/** Sentry's envelope format: a header line, then items of a header line and a payload. */
describe('Sentry envelopes', () => {
  const checkIn = '{"check_in_id":"a1","monitor_slug":"nightly","status":"ok"}';

  it('reads a check-in as the SDKs send it, with or without a trailing newline', () => {
    const expected = { header: { sdk: { name: 'sentry.javascript.node' } }, items: [{ header: { type: 'check_in' }, payload: checkIn }] };
    expect(parsed(envelope('{"sdk":{"name":"sentry.javascript.node"}}', '{"type":"check_in"}', checkIn))).to.deep.equal(expected);
    expect(parsed(envelope('{"sdk":{"name":"sentry.javascript.node"}}', '{"type":"check_in"}', checkIn, ''))).to.deep.equal(expected);
  });

  it('reads item headers of any shape, a payload of `length` bytes holding newlines, and blank or CRLF lines between items', () => {
    const withNewline = '{"a":\n1}';
    const bytes = envelope('{}', `{"type":"attachment","length":${Buffer.byteLength(withNewline)}}`, withNewline, '', '{ "type": "check_in" }\r', checkIn);
    expect(parsed(bytes).items).to.deep.equal([
      { header: { type: 'attachment', length: 8 }, payload: withNewline },
      { header: { type: 'check_in' }, payload: `${checkIn}` },
    ]);
  });

  it('takes an empty payload at the end of the envelope', () => {
    expect(parsed(envelope('{}', '{"type":"session"}')).items).to.deep.equal([{ header: { type: 'session' }, payload: '' }]);
  });

  it('refuses a header that is not a JSON object, and a length past the end, with a 400 naming them', () => {
    const refusal = (bytes: Buffer) => {
      try {
        parseEnvelope(bytes);
      } catch (error) {
        if (!(error instanceof HttpError)) throw error;
        return { status: error.status, message: error.message };
      }
      throw new Error('parsed');
    };
    expect(refusal(envelope('not json', checkIn))).to.deep.equal({ status: 400, message: 'invalid envelope: the envelope header is not JSON' });
    expect(refusal(envelope('{}', '[1]', checkIn))).to.deep.equal({ status: 400, message: 'invalid envelope: the item 1 header is not a JSON object' });
    expect(refusal(envelope('{}', '{"type":"check_in","length":500}', checkIn))).to.deep.equal({ status: 400, message: 'invalid envelope: item 1 says it is 500 bytes long, but the envelope ends before' });
  });
});
