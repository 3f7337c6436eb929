/**
 * Ways to write this machine's address in a URL's host, each with the address (or name) the
 * outbound guard names when it refuses it. WHATWG URL parsing turns the decimal, hex, octal,
 * shortened and zero-padded IPv4 spellings into 127.0.0.1 before the guard sees them.
 */
export const LOOPBACK_FORMS: readonly { host: string; refused: string }[] = [
  { host: '2130706433', refused: '127.0.0.1' },
  { host: '0x7f000001', refused: '127.0.0.1' },
  { host: '127.1', refused: '127.0.0.1' },
  { host: '[::1]', refused: '::1' },
  { host: '[::ffff:127.0.0.1]', refused: '::ffff:7f00:1' },
  { host: '0.0.0.0', refused: '0.0.0.0' },
  { host: '0177.0.0.1', refused: '127.0.0.1' },
  { host: 'localhost', refused: 'localhost' },
  { host: '127.0.0.1', refused: '127.0.0.1' },
  { host: '[::]', refused: '::' },
  { host: '[0:0:0:0:0:ffff:7f00:1]', refused: '::ffff:7f00:1' },
  { host: '127.000.000.001', refused: '127.0.0.1' },
  { host: '0x7f.1', refused: '127.0.0.1' },
  { host: 'LocalHost.', refused: 'localhost' },
  { host: '[::127.0.0.1]', refused: '::7f00:1' },
];
