import { EntityRepository } from '@mikro-orm/postgresql';
import { normalizeEmail, type User } from './user.entity';

/** People are global: one email, one person, whichever agency they are in. */
export class UserRepository extends EntityRepository<User> {
  /** By email whatever its case; with the password hash (lazy otherwise) when asked. */
  findByEmail(email: string, options: { withPassword?: boolean } = {}): Promise<User | null> {
    return this.findOne(
      { email: normalizeEmail(email) },
      options.withPassword ? { populate: ['passwordHash'] } : {},
    );
  }

  async isEmailTaken(email: string): Promise<boolean> {
    return (await this.count({ email: normalizeEmail(email) })) > 0;
  }

  /** A person known to exist (the caller's own id, or a member's). */
  getById(userId: string): Promise<User> {
    return this.findOneOrFail(userId);
  }

  findByIds(userIds: string[]): Promise<User[]> {
    return this.find({ id: { $in: userIds } });
  }
}
