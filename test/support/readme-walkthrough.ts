/** The README's runnable walkthrough: the fenced blocks between its readme-test markers, in order. */
export interface WalkthroughStep {
  /** A shell block to run. */
  command: string;
  /** The answer the README shows right after it (a json or text block), if any. */
  shows?: { lang: 'json' | 'text'; body: string };
}

const BEGIN = '<!-- readme-test: begin';
const END = '<!-- readme-test: end -->';

export function walkthrough(readme: string): WalkthroughStep[] {
  const start = readme.indexOf(BEGIN);
  const end = readme.indexOf(END);
  if (start < 0 || end < start) throw new Error('README has no readme-test markers');
  const blocks = [...readme.slice(start, end).matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], body: m[2].trimEnd() }));
  const steps: WalkthroughStep[] = [];
  for (const block of blocks) {
    if (block.lang === 'sh') steps.push({ command: block.body });
    else if ((block.lang === 'json' || block.lang === 'text') && steps.length && !steps[steps.length - 1].shows)
      steps[steps.length - 1].shows = { lang: block.lang, body: block.body };
    else throw new Error(`README walkthrough: a ${block.lang} block that follows no command`);
  }
  return steps;
}

/**
 * Whether an actual JSON answer is what the README shows: the same keys in the same order and the same
 * values, where a string holding `…` stands for any string with the text around the `…`.
 */
export function sameAsShown(actual: unknown, shown: unknown, path = '$'): string | null {
  if (typeof shown === 'string' && shown.includes('…')) {
    const [before, after] = shown.split('…');
    return typeof actual === 'string' && actual.startsWith(before) && actual.endsWith(after) ? null : `${path}: ${JSON.stringify(actual)} is not like ${JSON.stringify(shown)}`;
  }
  if (Array.isArray(shown)) {
    if (!Array.isArray(actual) || actual.length !== shown.length) return `${path}: ${JSON.stringify(actual)} has not ${shown.length} items`;
    for (let i = 0; i < shown.length; i++) {
      const problem = sameAsShown(actual[i], shown[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  if (shown !== null && typeof shown === 'object') {
    if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return `${path}: ${JSON.stringify(actual)} is not an object`;
    const keys = Object.keys(shown);
    if (JSON.stringify(Object.keys(actual)) !== JSON.stringify(keys)) return `${path}: keys ${Object.keys(actual).join(',')} instead of ${keys.join(',')}`;
    for (const key of keys) {
      const problem = sameAsShown((actual as Record<string, unknown>)[key], (shown as Record<string, unknown>)[key], `${path}.${key}`);
      if (problem) return problem;
    }
    return null;
  }
  return actual === shown ? null : `${path}: ${JSON.stringify(actual)} instead of ${JSON.stringify(shown)}`;
}
