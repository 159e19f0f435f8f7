import { Algorithm, hash, verify } from '@node-rs/argon2';
import { Injectable } from '@nestjs/common';

const OPTIONS = { algorithm: Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

@Injectable()
export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return hash(password, OPTIONS);
  }

  verify(passwordHash: string, password: string): Promise<boolean> {
    return verify(passwordHash, password).catch(() => false);
  }

  /** Spends the same time as a real check, for an email nobody has (sign-in must not tell). */
  async verifyNobody(password: string): Promise<false> {
    this.dummy ??= this.hash('not-a-real-password-0000');
    await this.verify(await this.dummy, password);
    return false;
  }
}
