import type { Caller } from '../../../src/common/auth/authenticated-request';
import { CallerVerifier } from '../../../src/common/auth/caller-verifier';

/** API usernames with their passwords and callers; anything else does not verify. */
export class FakeCallerVerifier extends CallerVerifier {
  readonly calls: Array<{ username: string; password: string }> = [];

  constructor(private readonly keys: Record<string, { password: string; caller: Caller }>) {
    super();
  }

  async verify(username: string, password: string): Promise<Caller | null> {
    this.calls.push({ username, password });
    const key = Object.hasOwn(this.keys, username) ? this.keys[username] : undefined;
    return key && key.password === password ? key.caller : null;
  }
}
