import type { Tx } from '../../../src/database/unit-of-work';
import type { LinkDraft } from '../../../src/links/link-rewriter';
import { LinkStore } from '../../../src/links/link-store.service';
import type { LinksRepository } from '../../../src/links/links.repository';

/** short_links in memory: a code already present is skipped, as ON CONFLICT DO NOTHING does, and answered as taken. */
class FakeLinksRepository {
  readonly codes: Set<string>;
  readonly inserts: string[][] = [];
  constructor(taken: string[]) {
    this.codes = new Set(taken);
  }
  async insertMany(_accountId: number, _sendId: number, drafts: LinkDraft[]): Promise<Set<string>> {
    this.inserts.push(drafts.map((d) => d.code));
    const taken = new Set<string>();
    for (const d of drafts) {
      if (this.codes.has(d.code)) taken.add(d.code);
      else this.codes.add(d.code);
    }
    return taken;
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

  it('gives a link whose code another send took a fresh code, rewrites its text, and inserts only that one again', async () => {
    const repo = new FakeLinksRepository(['bbbbbbb']);
    const texts: Record<string, string> = { m1: 'x aaaaaaa', m2: 'y bbbbbbb' };
    const drafts = [draft('aaaaaaa', 'm1'), draft('bbbbbbb', 'm2')];
    await new LinkStore(repo as unknown as LinksRepository).store(1, 9, { drafts, recode: (d, code) => (texts[d.messageId] = texts[d.messageId].replace(d.code, code)) }, tx);
    expect(repo.inserts).toHaveLength(2);
    expect(repo.inserts[1]).toEqual([drafts[1].code]);
    expect(drafts[1].code).toMatch(/^[0-9A-Za-z]{7}$/);
    expect(drafts[1].code).not.toBe('bbbbbbb');
    expect(texts).toEqual({ m1: 'x aaaaaaa', m2: `y ${drafts[1].code}` });
  });
});
