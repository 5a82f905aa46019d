// A throw-away self-signed certificate (for localhost unless told another name), made with openssl when it is on PATH (else undefined).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The key and certificate as PEM text. For `localhost` (the default) the certificate names it in its
 * subject only, as it always has; for any other name it also carries `subjectAltName=DNS:<name>`,
 * which is what a TLS client checks a host name against.
 */
export function selfSignedCert(hostname = 'localhost'): { key: string; cert: string } | undefined {
  const dir = mkdtempSync(path.join(tmpdir(), 'rf-tls-'));
  try {
    const key = path.join(dir, 'key.pem');
    const cert = path.join(dir, 'cert.pem');
    const args = ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    // Node checks the name against subjectAltName only, so the name goes there too.
    const altName = ['-addext', `subjectAltName=DNS:${hostname}`];
    execFileSync(
      'openssl',
      [...args, '-keyout', key, '-out', cert, '-days', '1', '-subj', `/CN=${hostname}`, ...altName],
      { stdio: 'ignore' },
    );
    return { key: readFileSync(key, 'utf8'), cert: readFileSync(cert, 'utf8') };
  } catch {
    return undefined;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
