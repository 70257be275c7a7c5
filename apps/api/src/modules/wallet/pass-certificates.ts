import forge from 'node-forge';

/** What signs an Apple pass: the pass type's certificate and key, and Apple's WWDR intermediate. */
export interface PassCertificates {
  signerCert: string;
  signerKey: string;
  /** APPLE_PASS_KEY_PASSPHRASE, when the key is encrypted. */
  signerKeyPassphrase?: string;
  wwdr: string;
  passTypeId: string;
  teamId: string;
  /** True for the generated set of the embedded default: a real iPhone refuses these passes. */
  selfSigned: boolean;
}

const name = (cn: string) => [
  { name: 'commonName', value: cn },
  { name: 'organizationName', value: 'Kringle development' },
];

/**
 * A self-signed set for the embedded default and tests (decision 0099): a CA standing in for
 * Apple's WWDR and a pass certificate it issued, made with node-forge (node's crypto cannot make
 * X.509 certificates). openssl verifies a pass signed with it against the CA, as it would Apple's.
 */
export function generatePassCertificates(passTypeId = 'pass.test.kringle', teamId = 'KRINGLEDEV'): PassCertificates {
  const caKeys = forge.pki.rsa.generateKeyPair(2048);
  const ca = forge.pki.createCertificate();
  ca.publicKey = caKeys.publicKey;
  ca.serialNumber = '01';
  ca.validity.notBefore = new Date(Date.now() - 24 * 3600_000);
  ca.validity.notAfter = new Date(Date.now() + 5 * 365 * 24 * 3600_000);
  ca.setSubject(name('Kringle development WWDR stand-in'));
  ca.setIssuer(name('Kringle development WWDR stand-in'));
  ca.setExtensions([
    { name: 'basicConstraints', cA: true },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true },
  ]);
  ca.sign(caKeys.privateKey, forge.md.sha256.create());

  const keys = forge.pki.rsa.generateKeyPair(2048);
  const cert = forge.pki.createCertificate();
  cert.publicKey = keys.publicKey;
  cert.serialNumber = '02';
  cert.validity.notBefore = ca.validity.notBefore;
  cert.validity.notAfter = ca.validity.notAfter;
  cert.setSubject([
    { name: 'commonName', value: `Pass Type ID: ${passTypeId}` },
    { shortName: 'OU', value: teamId },
  ]);
  cert.setIssuer(ca.subject.attributes);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true },
  ]);
  cert.sign(caKeys.privateKey, forge.md.sha256.create());
  return {
    signerCert: forge.pki.certificateToPem(cert),
    signerKey: forge.pki.privateKeyToPem(keys.privateKey),
    wwdr: forge.pki.certificateToPem(ca),
    passTypeId,
    teamId,
    selfSigned: true,
  };
}
