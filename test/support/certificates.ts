import forge from 'node-forge';

export interface Issued {
  cert: string;
  key: string;
  notAfter: Date;
}

const DAY = 86_400_000;

function keys() {
  return forge.pki.rsa.generateKeyPair(2048);
}

function certificate(subject: string, publicKey: forge.pki.PublicKey, notBefore: Date, notAfter: Date, serial: string) {
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicKey;
  cert.serialNumber = serial;
  cert.validity.notBefore = notBefore;
  cert.validity.notAfter = notAfter;
  cert.setSubject([{ name: 'commonName', value: subject }, { name: 'organizationName', value: subject }]);
  return cert;
}

/**
 * A test CA, and leaf certificates for 127.0.0.1/localhost it signs with any validity, expired ones
 * included, all dated from `now`: the clock of the spec that uses them, never the wall clock
 * behind its back. The CA is made on first use, so it can follow a clock that starts later.
 */
export function testCertificateAuthority(now: () => Date) {
  const at = (days: number) => new Date(now().getTime() + days * DAY);
  let made: { caPem: string; caKeys: forge.pki.rsa.KeyPair; ca: forge.pki.Certificate } | null = null;
  const authority = () => {
    if (made) return made;
    const caKeys = keys();
    const ca = certificate('Vigil Test CA', caKeys.publicKey, at(-1), at(3650), '01');
    ca.setIssuer(ca.subject.attributes);
    ca.setExtensions([{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true }]);
    ca.sign(caKeys.privateKey, forge.md.sha256.create());
    made = { caPem: forge.pki.certificateToPem(ca), caKeys, ca };
    return made;
  };
  let serial = 2;

  function leaf(options: { notBefore: Date; notAfter: Date; selfSigned?: boolean }): Issued {
    const { ca, caKeys } = authority();
    const leafKeys = keys();
    const cert = certificate('localhost', leafKeys.publicKey, options.notBefore, options.notAfter, (serial++).toString(16).padStart(2, '0'));
    cert.setIssuer(options.selfSigned ? cert.subject.attributes : ca.subject.attributes);
    cert.setExtensions([
      { name: 'basicConstraints', cA: false },
      { name: 'subjectAltName', altNames: [{ type: 2, value: 'localhost' }, { type: 7, ip: '127.0.0.1' }] },
    ]);
    cert.sign(options.selfSigned ? leafKeys.privateKey : caKeys.privateKey, forge.md.sha256.create());
    return { cert: forge.pki.certificateToPem(cert), key: forge.pki.privateKeyToPem(leafKeys.privateKey), notAfter: options.notAfter };
  }

  return {
    get caPem() {
      return authority().caPem;
    },
    valid: () => leaf({ notBefore: at(-1), notAfter: at(365) }),
    expiringInDays: (days: number) => leaf({ notBefore: at(-1), notAfter: at(days) }),
    expired: () => leaf({ notBefore: at(-30), notAfter: at(-1) }),
    selfSigned: () => leaf({ notBefore: at(-1), notAfter: at(365), selfSigned: true }),
  };
}
