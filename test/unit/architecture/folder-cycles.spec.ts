import path from 'node:path';
import { cycles, folderImportGraph } from '../../support/import-graph';

const SRC = path.resolve(__dirname, '../../../src');

/** Design rule 8: modules form an acyclic graph. Checked on the folders of src/, counting run-time imports. */
describe('the import graph between the top-level folders of src/', () => {
  it('has no cycle', () => {
    const graph = folderImportGraph(SRC);
    const described = cycles(graph).map((group) =>
      group.flatMap((from) => group.filter((to) => graph.get(from)?.has(to)).map((to) => `${from} -> ${to} (${[...new Set(graph.get(from)!.get(to))].join(', ')})`)).join('\n'),
    );
    expect(described).toEqual([]);
  });

  it('detects a cycle when there is one', () => {
    const graph = new Map([
      ['a', new Map([['b', ['a/x.ts']]])],
      ['b', new Map([['c', ['b/y.ts']]])],
      ['c', new Map([['a', ['c/z.ts']]])],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
  });

  it('keeps composition-root files as one node, so a folder importing the root back is a cycle', () => {
    expect(folderImportGraph(SRC).get('(root)')?.size).toBeGreaterThan(0);
  });
});
