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

/** A test CA, and leaf certificates for 127.0.0.1/localhost it signs with any validity, expired ones included. */
export function testCertificateAuthority() {
  const caKeys = keys();
  const ca = certificate('Vigil Test CA', caKeys.publicKey, new Date(Date.now() - DAY), new Date(Date.now() + 3650 * DAY), '01');
  ca.setIssuer(ca.subject.attributes);
  ca.setExtensions([{ name: 'basicConstraints', cA: true }, { name: 'keyUsage', keyCertSign: true, cRLSign: true }]);
  ca.sign(caKeys.privateKey, forge.md.sha256.create());
  const caPem = forge.pki.certificateToPem(ca);
  let serial = 2;

  function leaf(options: { notBefore: Date; notAfter: Date; selfSigned?: boolean }): Issued {
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
    caPem,
    valid: () => leaf({ notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 365 * DAY) }),
    expiringInDays: (days: number) => leaf({ notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + days * DAY) }),
    expired: () => leaf({ notBefore: new Date(Date.now() - 30 * DAY), notAfter: new Date(Date.now() - DAY) }),
    selfSigned: () => leaf({ notBefore: new Date(Date.now() - DAY), notAfter: new Date(Date.now() + 365 * DAY), selfSigned: true }),
  };
}
