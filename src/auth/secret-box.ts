import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from 'node:crypto';

/**
 * AES-256-GCM encryption of secrets at rest. Sealed text is `v1.` + base64(iv | tag | ciphertext);
 * the version prefix lets the format change without guessing.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('The master key must be 32 bytes');
    this.key = masterKey;
  }

  seal(plaintext: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64')}`;
  }

  open(sealed: string): string {
    if (!sealed.startsWith('v1.')) throw new Error('Unknown sealed secret format');
    const raw = Buffer.from(sealed.slice(3), 'base64');
    const decipher = createDecipheriv('aes-256-gcm', this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}

/**
 * A master key given as 64 hex characters or base64 of 32 bytes is used as is; any other text is
 * treated as a passphrase and stretched with scrypt.
 */
export function masterKeyFromText(text: string): Buffer {
  if (/^[0-9a-fA-F]{64}$/.test(text)) return Buffer.from(text, 'hex');
  const decoded = Buffer.from(text, 'base64');
  if (decoded.length === 32 && decoded.toString('base64') === text) return decoded;
  return scryptSync(text, 'tradeloop-master-key', 32, { N: 1 << 15, maxmem: 64 * 1024 * 1024 });
}

export function newMasterKeyText(): string {
  return randomBytes(32).toString('hex');
}
