import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** The app's /metrics text. */
export async function metricsText(app: NestFastifyApplication): Promise<string> {
  return (await app.inject({ method: 'GET', url: '/metrics' })).body;
}

/** The value of one series (name with its labels, as exported) in a /metrics text; undefined when absent. */
export function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}
