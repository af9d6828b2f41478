import type { Tx } from '../../../src/database/unit-of-work';
import type { LinkDraft } from '../../../src/links/link-rewriter';
import { LinkStore } from '../../../src/links/link-store.service';
import type { LinkInsertOutcome, LinksRepository } from '../../../src/links/links.repository';

/** short_links in memory: all of a send's links or none, as the real insert under its savepoint; a refusal names the codes already held. */
class FakeLinksRepository {
  readonly codes: Set<string>;
  readonly inserts: string[][] = [];
  constructor(taken: string[]) {
    this.codes = new Set(taken);
  }
  async insertAll(_accountId: number, _sendId: number, drafts: LinkDraft[]): Promise<LinkInsertOutcome> {
    this.inserts.push(drafts.map((d) => d.code));
    const taken = new Set(drafts.filter((d) => this.codes.has(d.code)).map((d) => d.code));
    if (taken.size > 0) return { stored: false, taken };
    for (const d of drafts) this.codes.add(d.code);
    return { stored: true };
  }
}

const draft = (code: string, messageId: string): LinkDraft => ({ code, kind: 'url', url: 'https://a.test', messageId });
const tx = {} as Tx;

describe(LinkStore.name, () => {
  it('stores a whole send in one insert when no code is taken', async () => {
    const repo = new FakeLinksRepository([]);
    const recoded: string[] = [];
    await new LinkStore(repo as unknown as LinksRepository).store(1, 9, { drafts: [draft('aaaaaaa', 'm1'), draft('bbbbbbb', 'm2')], recode: (d) => recoded.push(d.code) }, tx);
    expect(repo.inserts).toEqual([['aaaaaaa', 'bbbbbbb']]);
    expect(recoded).toEqual([]);
  });

  it('gives a link whose code another send took a fresh code, rewrites its text, and inserts the send again', async () => {
    const repo = new FakeLinksRepository(['bbbbbbb']);
    const texts: Record<string, string> = { m1: 'x aaaaaaa', m2: 'y bbbbbbb' };
    const drafts = [draft('aaaaaaa', 'm1'), draft('bbbbbbb', 'm2')];
    await new LinkStore(repo as unknown as LinksRepository).store(1, 9, { drafts, recode: (d, code) => (texts[d.messageId] = texts[d.messageId].replace(d.code, code)) }, tx);
    expect(repo.inserts).toHaveLength(2);
    expect(repo.inserts[1]).toEqual(['aaaaaaa', drafts[1].code]);
    expect(drafts[1].code).toMatch(/^[0-9A-Za-z]{7}$/);
    expect(drafts[1].code).not.toBe('bbbbbbb');
    expect(texts).toEqual({ m1: 'x aaaaaaa', m2: `y ${drafts[1].code}` });
  });

  it('inserts again with the same codes when the holder of a code rolled back before it could be named', async () => {
    const outcomes: LinkInsertOutcome[] = [{ stored: false, taken: new Set() }, { stored: true }];
    const inserts: string[][] = [];
    const repo = { insertAll: async (_a: number, _s: number, drafts: LinkDraft[]) => (inserts.push(drafts.map((d) => d.code)), outcomes.shift()!) };
    const recoded: string[] = [];
    await new LinkStore(repo as unknown as LinksRepository).store(1, 9, { drafts: [draft('aaaaaaa', 'm1')], recode: (d) => recoded.push(d.code) }, tx);
    expect(inserts).toEqual([['aaaaaaa'], ['aaaaaaa']]);
    expect(recoded).toEqual([]);
  });

  it('gives up after five refused inserts rather than looping', async () => {
    const repo = { insertAll: jest.fn(async (): Promise<LinkInsertOutcome> => ({ stored: false, taken: new Set() })) };
    await expect(new LinkStore(repo as unknown as LinksRepository).store(1, 9, { drafts: [draft('aaaaaaa', 'm1')], recode: () => undefined }, tx)).rejects.toThrow(
      'short link codes still taken after 5 rounds',
    );
    expect(repo.insertAll).toHaveBeenCalledTimes(5);
  });
});
