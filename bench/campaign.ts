/** The campaign bench:dispatch and bench:scale send: request bodies and the POST that sends one. */

/** `total` messages to distinct numbers (from `firstNumber`) as request bodies of `perRequest`, from sender 61400000001. */
export function campaignBodies(total: number, perRequest: number, firstNumber: number): string[] {
  return Array.from({ length: Math.ceil(total / perRequest) }, (_, r) =>
    JSON.stringify({
      messages: Array.from({ length: Math.min(perRequest, total - r * perRequest) }, (_, i) => ({
        to: `04${String(firstNumber + r * perRequest + i).slice(-8)}`,
        message: `Campaign message ${i}: your code is ${1000 + (i % 9000)}`,
        sender: '61400000001',
      })),
    }),
  );
}

export async function postSend(base: string, auth: string, body: string): Promise<void> {
  const res = await fetch(`${base}/v1/messages`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body });
  if (res.status !== 200) throw new Error(`send: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}
